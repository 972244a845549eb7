import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README and docs/ are how a newcomer finds their way: every link must lead somewhere and every
// command they show must exist.
function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith(".md") ? [file] : [];
  });
}

const DOCUMENTS = ["README.md", ...markdownFiles("docs")];
const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
// npm's own commands that need no script of ours (`npm test` and `npm start` do, and are checked).
const NPM_BUILTINS = new Set(["install", "ci", "view", "exec"]);

/** Relative links of a Markdown text: [text](target), without external, mail and in-page ones. */
function relativeLinks(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target));
}

/** The code of a Markdown text (fenced blocks and inline spans), where commands are written. */
function codeIn(text: string): string {
  const blocks = [...text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const spans = [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...blocks, ...spans].join("\n");
}

describe("the README and docs/", () => {
  it("finds the documents", () => {
    expect(DOCUMENTS).toContain("README.md");
  });

  it.each(DOCUMENTS)("every relative link in %s leads to a file of the repository", (document) => {
    const broken = relativeLinks(readFileSync(document, "utf8")).filter((target) => {
      const file = decodeURIComponent(target.split("#")[0]!);
      return file !== "" && !existsSync(path.resolve(path.dirname(document), file));
    });
    expect(broken).toEqual([]);
  });

  it.each(DOCUMENTS)("every npm command %s shows is a script of package.json (or npm's own)", (document) => {
    const code = codeIn(readFileSync(document, "utf8"));
    const missing = [...code.matchAll(/\bnpm (?:run(?:-script)? )?([a-z][\w:.-]*)/g)]
      .map((match) => ({ command: match[0], name: match[1]!, run: match[0].includes(" run") }))
      .filter(({ name, run }) => (run ? !(name in scripts) : !(name in scripts) && !NPM_BUILTINS.has(name)))
      .map(({ command }) => command);
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(DOCUMENTS)("every script file %s names (node/bash scripts/...) exists", (document) => {
    const code = codeIn(readFileSync(document, "utf8"));
    const missing = [...code.matchAll(/\b(?:node|bash) ((?:scripts|build)\/[\w./-]+)/g)]
      .map((match) => match[1]!)
      .filter((file) => !file.startsWith("build/") && !existsSync(file));
    expect(missing).toEqual([]);
  });
});
