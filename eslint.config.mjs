// ESLint: typescript-eslint's type-checked rules, React hooks rules and Next.js' own rules, plus the
// house layout (docs/architecture.md): imports run one way down the layers, never in a cycle, and no
// production file reaches into e2e/ (where the fakes and test beds live).
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

import patchbay from "./lint/no-import-cycle.mjs";

// The server's layers, bottom up. Each may import the ones below it, never one above it:
//   core (+ errors.ts)  <-  env.ts, generated/, db/, crypto/  <-  auth/ | mcp/ | providers/
//   mcp/  <-  policy/  <-  session/  <-  api/  <-  cli/
// providers/ and mcp/ do not import each other; auth/ sits beside them (it needs only the database).
// metrics/ (aggregates over stored rows) needs only the database too; api/ and app/ read it.
const server = (...folders) => folders.map((folder) => `./server/${folder}`);
const above = {
  core: server(
    "env.ts",
    "generated",
    "db",
    "crypto",
    "auth",
    "mcp",
    "providers",
    "policy",
    "metrics",
    "session",
    "api",
    "cli",
  ),
  base: server("auth", "mcp", "providers", "policy", "metrics", "session", "api", "cli"),
  mcp: server("auth", "providers", "policy", "metrics", "session", "api", "cli"),
  providers: server("auth", "mcp", "policy", "metrics", "session", "api", "cli"),
  auth: server("mcp", "providers", "policy", "metrics", "session", "api", "cli"),
  policy: server("auth", "providers", "metrics", "session", "api", "cli"),
  metrics: server("auth", "mcp", "providers", "policy", "session", "api", "cli"),
  session: server("auth", "metrics", "api", "cli"),
  api: server("cli"),
};
const layerZones = [
  { target: "./server/core", from: above.core, message: "server/core is the bottom layer: it imports only errors.ts." },
  { target: server("env.ts", "errors.ts", "generated", "db", "crypto"), from: above.base },
  { target: "./server/mcp", from: above.mcp },
  { target: "./server/providers", from: above.providers },
  { target: "./server/auth", from: above.auth },
  { target: "./server/policy", from: above.policy },
  { target: "./server/metrics", from: above.metrics },
  { target: "./server/session", from: above.session },
  { target: "./server/api", from: above.api },
].map((zone) => ({ message: "This import runs up the layers (see docs/architecture.md).", ...zone }));
const productionZones = [
  { target: "./server", from: ["./app", "./components"], message: "server/ never imports app/ or components/." },
  {
    target: ["./server", "./app", "./components", "./instrumentation.ts"],
    from: "./e2e",
    message: "Production code never imports e2e/ (fakes, fixtures and test beds live there).",
  },
];

/** Error classes recognised by brand or name, never by instanceof (see server/core/brand.ts). */
const ownErrorClasses =
  "^(AppError|ToolError|StepAborted|RefreshRevokedError|ToolNameCollisionError|EnvError|TRPCError|ZodError)$";

export default tseslint.config(
  {
    ignores: [
      ".next/",
      "node_modules/",
      "server/generated/",
      ".data/",
      "test-results/",
      "playwright-report/",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration from server/env.ts." },
      ],
      // A production build can hold two copies of a class, so `instanceof` on these fails across
      // bundles: recognise them by brand (isAppError, isToolError, ...) or by name (server/errors.ts).
      "no-restricted-syntax": [
        "error",
        {
          selector: `BinaryExpression[operator='instanceof'][right.name=/${ownErrorClasses}/]`,
          message: "Recognise own errors by their brand (isAppError(), isToolError(), ...), not instanceof.",
        },
      ],
    },
  },
  {
    plugins: { "import-x": importX, patchbay },
    settings: {
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "patchbay/no-import-cycle": "error",
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "bench/**"],
    rules: { "import-x/no-restricted-paths": ["error", { zones: [...layerZones, ...productionZones] }] },
  },
  {
    // Small files, short functions (docs/architecture.md). Test files and e2e/ harnesses are exempt.
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "max-lines": ["error", { max: 300 }],
      "max-lines-per-function": ["error", { max: 80 }],
    },
  },

  {
    files: [
      "server/env.ts",
      "instrumentation.ts",
      "server/cli/serve.ts", // sets the environment Next.js's runtime reads, as the `next` CLI does
      "prisma.config.ts",
      "playwright.config.ts",
      "vitest.config.ts",
      "e2e/**",
      "bench/**",
      ".ci/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
