// Lint for the whole repository: TypeScript, React hooks, import cycles and unused code.
// `npm run lint` (part of `npm test`) must pass with zero warnings.
import js from "@eslint/js";
import { readdirSync } from "node:fs";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// app/routes/<screen>/: one folder per screen (docs/architecture.md).
const screenFolders = readdirSync(new URL("app/routes", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ["build/", "public/build/", ".cache/", ".data/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "import-x": importX, "react-hooks": reactHooks },
    settings: {
      // import-x must parse TypeScript to follow imports (without this, no-cycle finds nothing).
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts", ".cts"] },
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Imports run one way (routes → components, domain, lib, server; server → domain). A route
      // folder (app/routes/<screen>/) is one screen: its route module, its page module
      // (*.server.ts) and its own components and form schemas, which nothing else imports.
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...["components", "lib", "domain", "content"].map((layer) => ({
              target: `./app/${layer}`,
              from: "./app/server",
              message: "Only routes and server modules reach the server; the browser never loads it.",
            })),
            {
              // A screen's components and form schemas: everything in a route folder but the route
              // module and the *.server files.
              target: "./app/routes/*/!(route|*.server).{ts,tsx}",
              from: "./app/server",
              message: "A screen's components reach the server only through its route's loader and action.",
            },
            {
              target: ["./app/components", "./app/lib", "./app/domain", "./app/content"],
              from: "./app/routes",
              message: "What two screens use lives in components, lib, domain or content, not in a route folder.",
            },
            ...screenFolders.map((screen) => ({
              target: `./app/routes/${screen}`,
              from: "./app/routes",
              except: [`./${screen}`],
              message: "A route folder is one screen's: what two screens use lives in components, domain or server.",
            })),
            {
              target: "./app/domain",
              from: ["./app/lib", "./app/components"],
              message: "Domain rules are plain data and functions: no hooks, no components.",
            },
            {
              target: "./app/server",
              from: ["./app/routes", "./app/components", "./app/lib"],
              message: "The server does not know the screens: routes call the server, not the other way.",
            },
            {
              target: "./app/server/db",
              from: "./app/server/http",
              message: "The database layer knows nothing of requests and responses.",
            },
            {
              // The walls read their own WALL_{NAME}_… (walls/registry.server.ts, readWalls): the
              // environment importing them loaded all eight wall adapters into everything that reads it.
              target: "./app/server/runtime",
              from: "./app/server/walls",
              message:
                "runtime/ is infrastructure that every domain imports: the walls read their own WALL_{NAME}_… variables (readWalls), runtime/ never imports walls/.",
            },
            {
              target: "./app/server/runtime",
              from: [
                "./app/server/account",
                "./app/server/earning",
                "./app/server/withdrawals",
                "./app/server/operator",
              ],
              message: "runtime/ is infrastructure that every domain imports: it imports no domain folder.",
            },
            {
              // root.server.ts, the shell's loader, alone takes the notices to show once.
              target: "./app/server/runtime/!(root.server).ts",
              from: "./app/server/notifications",
              message: "runtime/ is infrastructure that every domain imports: it imports no domain folder.",
            },
          ],
        },
      ],
    },
  },
  // Remix's ambient types are declared the way TypeScript expects for .d.ts files.
  { files: ["**/*.d.ts"], rules: { "@typescript-eslint/triple-slash-reference": "off" } },
);
