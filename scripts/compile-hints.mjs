// @ts-check
// Marks the scripts every page runs at its start (the entry module, the root route's module and the
// chunks they import) for eager compilation: a first line `//# allFunctionsCalledOnLoad`, V8's
// explicit compile hint (Chromium 136 and later; other engines read a comment). Without it, V8
// compiles each function when it is first called, on the main thread: React's and Remix's
// functions, all called while the page starts, were compiled inside the task that evaluates the
// modules. With it they are compiled with the file, as it arrives, off the main thread
// (docs/decisions/103). Part of `npm run build`, before the compressed copies are made; the files'
// names (content hashes of Remix's output) stay as they are, and the same build writes the same files.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = "public/build";
const HINT = "//# allFunctionsCalledOnLoad\n";

const manifestFile = readdirSync(ROOT).find((name) => /^manifest-[A-Z0-9]+\.js$/.test(name));
if (!manifestFile) throw new Error(`No manifest in ${ROOT}: run remix build first`);
const manifestText = readFileSync(path.join(ROOT, manifestFile), "utf8");
/** @type {{ entry: { module: string, imports?: string[] }, routes: Record<string, { module: string, imports?: string[] }> }} */
const manifest = JSON.parse(manifestText.slice(manifestText.indexOf("=") + 1).replace(/;\s*$/, ""));
const root = manifest.routes.root;
if (!root) throw new Error("The manifest has no root route");

const startup = new Set([
  manifest.entry.module,
  ...(manifest.entry.imports ?? []),
  root.module,
  ...(root.imports ?? []),
]);
for (const url of startup) {
  const file = path.join("public", url);
  const text = readFileSync(file, "utf8");
  if (!text.startsWith(HINT)) writeFileSync(file, HINT + text);
}
console.log(`compile hints: ${startup.size} start-up scripts compiled eagerly`);
