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

  it.each(DOCUMENTS)(
    "every file or folder %s names in backticks under app/, tests/, scripts/, supabase/ or public/ exists",
    (document) => {
      const text = readFileSync(document, "utf8");
      const missing = [...text.matchAll(/`((?:app|tests|scripts|supabase|public)\/[^`\s]+)`/g)]
        .map((match) => match[1]!.replace(/:\d+$/, ""))
        // Patterns and placeholders ("app/routes/*/", "tests/<part>/", "….sql") name no one file.
        .filter((entry) => !/[*{<…]/.test(entry))
        // What `npm run build` writes (git-ignored) is not there on a fresh clone.
        .filter((entry) => !entry.startsWith("public/build/"))
        .filter((entry) => !existsSync(entry));
      expect([...new Set(missing)]).toEqual([]);
    },
  );

  it.each(DOCUMENTS)("every script file %s names (node/bash scripts/...) exists", (document) => {
    const code = codeIn(readFileSync(document, "utf8"));
    const missing = [...code.matchAll(/\b(?:node|bash) ((?:scripts|build)\/[\w./-]+)/g)]
      .map((match) => match[1]!)
      .filter((file) => !file.startsWith("build/") && !existsSync(file));
    expect(missing).toEqual([]);
  });
});

// docs/product.md describes every screen as built. Code comments name its sections by heading, as
// `docs/product.md, "Withdraw: the rules"` (several joined by commas and "and"), and docs link its anchors;
// renaming a heading must fail here until every reference follows.
const PRODUCT = "docs/product.md";
const SOURCE_DIRS = ["app", "tests", "scripts"];
const SOURCE_EXTENSIONS = /\.(?:[cm]?[jt]sx?|css|sh)$/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === "node_modules") return [];
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return SOURCE_EXTENSIONS.test(name) ? [file] : [];
  });
}

/** The headings of a Markdown text, outside fenced code, as written ("Withdraw: the rules"). */
function headingsOf(text: string): string[] {
  return [...text.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((match) => match[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces turned into hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The headings a text names after docs/product.md: a comma, then each in double quotes, joined by commas and "and". */
function productReferences(text: string): string[] {
  return [...text.matchAll(/docs\/product\.md((?:(?:, | and )"[^"\n]+")+)/g)].flatMap((match) =>
    [...match[1]!.matchAll(/"([^"\n]+)"/g)].map((quoted) => quoted[1]!),
  );
}

const productHeadings = headingsOf(readFileSync(PRODUCT, "utf8"));
const SOURCES = SOURCE_DIRS.flatMap(sourceFiles);

describe("docs/product.md and the references to it", () => {
  it("recognises a reference to one heading, and to several", () => {
    expect(productHeadings).toContain("Withdraw: the rules");
    expect(slugOf("Withdraw: the rules")).toBe("withdraw-the-rules");
    const one = ["// docs/product.md", ', "Withdraw: the rules": the order'].join("");
    const several = ["// docs/product.md", ', "Refer", "Refer: the rules" and "Refer: messages", word for word'].join(
      "",
    );
    expect(productReferences(one)).toEqual(["Withdraw: the rules"]);
    expect(productReferences(several)).toEqual(["Refer", "Refer: the rules", "Refer: messages"]);
  });

  it("has each heading once, so that a name or an anchor means one section", () => {
    const slugs = productHeadings.map(slugOf);
    expect(slugs.filter((slug, index) => slugs.indexOf(slug) !== index)).toEqual([]);
  });

  it("every reference to docs/product.md in app/, tests/ and scripts/ names one of its headings", () => {
    const references = SOURCES.flatMap((file) =>
      productReferences(readFileSync(file, "utf8")).map((heading) => ({ file, heading })),
    );
    // The comments of app/ alone name dozens of sections: finding none means the pattern broke.
    expect(references.filter(({ file }) => file.startsWith(`app${path.sep}`)).length).toBeGreaterThan(50);
    const missing = references.filter(({ heading }) => !productHeadings.includes(heading));
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)("every link %s makes into docs/product.md names one of its headings", (document) => {
    const text = readFileSync(document, "utf8")
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, "");
    const slugs = new Set(productHeadings.map(slugOf));
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    const broken = targets.filter((target) => {
      const [file, anchor] = target.split("#");
      if (anchor === undefined || /^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
      const resolved = file === "" ? path.resolve(document) : path.resolve(path.dirname(document), file!);
      return resolved === path.resolve(PRODUCT) && !slugs.has(decodeURIComponent(anchor));
    });
    expect(broken).toEqual([]);
  });

  it.each(["app", "tests", "scripts", "docs"])(
    "no file of %s/ points at the original spec's numbered sections any more",
    (dir) => {
      const files = dir === "docs" ? [...markdownFiles(dir), "README.md"] : sourceFiles(dir);
      expect(files.length).toBeGreaterThan(0);
      // Whatever the wording around it ("Spec", "the spec's", none): a section sign before a number.
      const stale = files.filter((file) => /\u00a7\s*\d/.test(readFileSync(file, "utf8")));
      expect(stale).toEqual([]);
    },
  );
});

// docs/product.md ends each screen's rules with one line naming where they live:
// Code: `app/routes/referral/`, `app/server/earning/referrals.server.ts` · SQL: `try_referral_credit`, `credit_cleared_referrals`
// (or "SQL: none", with a reason in brackets). A renamed module or SQL function must fail here.
const SCREENS = [
  "Onboarding",
  "Auth",
  "Home",
  "Earn",
  "Refer",
  "Withdraw",
  "Profile",
  "Leaderboard",
  "Settings",
  "Legal",
  "Not found",
  "Offline",
];
const NAMED = "`[^`\\n]+`(?:, `[^`\\n]+`)*";
const CODE_SQL_LINE = new RegExp(`^Code: (${NAMED}) \u00b7 SQL: (none(?: \\([^)\\n]+\\))?|${NAMED})$`);

/** The names in backticks of a list such as "`a`, `b`". */
function backticked(list: string): string[] {
  return [...list.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** The `## ` sections of a Markdown text outside fenced code, by heading, each with its lines (### included). */
function sectionsOf(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of text.replace(/```[\s\S]*?```/g, "").split("\n")) {
    const heading = /^## +(.+?) *$/.exec(line);
    if (heading) sections.set(heading[1]!, (current = []));
    else current?.push(line);
  }
  return sections;
}

describe("docs/product.md's Code and SQL lines", () => {
  const text = readFileSync(PRODUCT, "utf8");
  const lines = text.replace(/```[\s\S]*?```/g, "").split("\n");

  it('every "Code: … · SQL: …" line names existing files or folders and SQL functions or tables of supabase/schema/, and every screen\'s ## section has one', () => {
    // A line that starts as one but breaks the form would escape the checks below: it fails here.
    const malformed = lines.filter((line) => line.startsWith("Code:") && !CODE_SQL_LINE.test(line));
    expect(malformed).toEqual([]);
    const parsed = lines.flatMap((line) => {
      const match = CODE_SQL_LINE.exec(line);
      return match
        ? [{ paths: backticked(match[1]!), sql: match[2]!.startsWith("none") ? [] : backticked(match[2]!) }]
        : [];
    });
    expect(parsed.length).toBeGreaterThanOrEqual(SCREENS.length);
    // A folder is written with its slash; a file without one.
    const missingPaths = parsed
      .flatMap(({ paths }) => paths)
      .filter((entry) => {
        if (!existsSync(entry)) return true;
        return statSync(entry).isDirectory() !== entry.endsWith("/");
      });
    expect(missingPaths).toEqual([]);
    const missingSql = parsed
      .flatMap(({ sql }) => sql)
      .filter(
        (name) =>
          !/^[a-z_][a-z0-9_]*$/.test(name) ||
          !(existsSync(`supabase/schema/functions/${name}.sql`) || existsSync(`supabase/schema/tables/${name}.sql`)),
      );
    expect(missingSql).toEqual([]);
    const sections = sectionsOf(text);
    const withoutLine = SCREENS.filter(
      (screen) => !(sections.get(screen) ?? []).some((line) => CODE_SQL_LINE.test(line)),
    );
    expect(withoutLine).toEqual([]);
  });
});
