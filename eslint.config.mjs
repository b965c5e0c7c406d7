// ESLint: typescript-eslint's type-checked rules, React hooks rules and Next.js' own rules.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Error classes recognised by brand or name, never by instanceof (see server/brand.ts). */
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
    files: [
      "server/env.ts",
      "instrumentation.ts",
      "prisma.config.ts",
      "playwright.config.ts",
      "vitest.config.ts",
      "e2e/**",
      ".ci/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
