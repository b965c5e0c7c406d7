// The only reader of process.env. Every variable Patchbay understands is declared here, validated
// once with zod, and documented in .env.example. A bad value stops the process with a message that
// names the variable; nothing else in the code base touches process.env.
import { z } from "zod";

import { brandOf, hasBrand } from "./core/brand.ts";
import { hostingRefusals, isSingleUserEmbedded } from "./hosting-policy.ts";

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(z.url({ error: "must be a URL" }).optional());

const postgresUrl = optionalString.pipe(
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// or postgresql:// URL" })
    .optional(),
);

const port = (fallback: number) =>
  z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(fallback);

const modelList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(",")
        .map((model) => model.trim())
        .filter(Boolean),
    );

/** A true/false variable whose default depends on other variables (undefined when unset). */
const optionalFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .optional()
  .transform((value) => (value === undefined ? undefined : ["true", "1", "yes"].includes(value)));

const booleanFlag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
    .optional()
    .transform((value) => (value === undefined ? fallback : ["true", "1", "yes"].includes(value)));

/** A per-user limit: a positive whole number, or unset / 0 for none (null). */
const usageLimit = z.coerce
  .number({ error: "must be a whole number (0 or unset: no limit)" })
  .int({ error: "must be a whole number (0 or unset: no limit)" })
  .min(0, { error: "must be 0 or more (0 or unset: no limit)" })
  .optional()
  .transform((value) => (value ? value : null));

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: postgresUrl,
    PATCHBAY_DATA_DIR: z.string().trim().min(1).default(".data"),
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    PORT: port(3000),
    PATCHBAY_WORKERS: z.coerce.number({ error: "must be a whole number" }).int().min(1).max(64).default(1),
    DATABASE_POOL_SIZE: z.coerce.number({ error: "must be a whole number" }).int().min(2).max(200).default(10),
    DATABASE_PREPARED_STATEMENTS: booleanFlag(true),
    AUTH_URL: optionalUrl,
    AUTH_SECRET: optionalString.pipe(
      z.string().min(32, { error: "must be at least 32 characters (try: openssl rand -base64 33)" }).optional(),
    ),
    AUTH_GITHUB_ID: optionalString,
    AUTH_GITHUB_SECRET: optionalString,
    AUTH_GOOGLE_ID: optionalString,
    AUTH_GOOGLE_SECRET: optionalString,
    AUTH_OIDC_ISSUER: optionalUrl,
    AUTH_OIDC_ID: optionalString,
    AUTH_OIDC_SECRET: optionalString,
    AUTH_OIDC_NAME: z.string().trim().min(1).default("Single sign-on"),
    LOCAL_IDP_PORT: port(0),
    ANTHROPIC_API_KEY: optionalString,
    ANTHROPIC_BASE_URL: optionalUrl,
    ANTHROPIC_MODELS: modelList("claude-sonnet-4-5,claude-haiku-4-5,claude-opus-4-1"),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_MODELS: modelList("gpt-5.1,gpt-5-mini,gpt-4.1"),
    GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
    GOOGLE_BASE_URL: optionalUrl,
    GOOGLE_MODELS: modelList("gemini-2.5-pro,gemini-2.5-flash"),
    OPENAI_COMPATIBLE_BASE_URL: optionalUrl,
    OPENAI_COMPATIBLE_API_KEY: optionalString,
    OPENAI_COMPATIBLE_NAME: z.string().trim().min(1).default("Local models"),
    OPENAI_COMPATIBLE_MODELS: modelList(""),
    OPENAI_COMPATIBLE_NATIVE_TOOLS: booleanFlag(true),
    PROVIDER_SUBSCRIPTIONS: z
      .string()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((flow) => flow.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.enum(["anthropic", "openai", "google"], { error: "lists anthropic, openai or google (comma-separated)" }),
        ),
      ),
    ANTHROPIC_OAUTH_CLIENT_ID: z.string().trim().min(1).default("9d1c250a-e61b-44d9-88ed-5944d1962f5e"),
    ANTHROPIC_OAUTH_AUTHORIZE_URL: z.url({ error: "must be a URL" }).default("https://claude.ai/oauth/authorize"),
    ANTHROPIC_OAUTH_TOKEN_URL: z.url({ error: "must be a URL" }).default("https://platform.claude.com/v1/oauth/token"),
    ANTHROPIC_OAUTH_REDIRECT_URI: z
      .url({ error: "must be a URL" })
      .default("https://platform.claude.com/oauth/code/callback"),
    ANTHROPIC_OAUTH_SCOPES: z.string().trim().min(1).default("org:create_api_key user:profile user:inference"),
    ANTHROPIC_SUBSCRIPTION_BASE_URL: z.url({ error: "must be a URL" }).default("https://api.anthropic.com/v1"),
    ANTHROPIC_SUBSCRIPTION_MODELS: modelList("claude-sonnet-4-5,claude-opus-4-1,claude-haiku-4-5"),
    OPENAI_OAUTH_ISSUER: z.url({ error: "must be a URL" }).default("https://auth.openai.com"),
    OPENAI_OAUTH_CLIENT_ID: z.string().trim().min(1).default("app_EMoamEEZ73f0CkXaXp7hrann"),
    CHATGPT_BASE_URL: z.url({ error: "must be a URL" }).default("https://chatgpt.com/backend-api/codex"),
    CHATGPT_MODELS: modelList("gpt-5.1-codex-max,gpt-5.1-codex,gpt-5.1"),
    CHATGPT_INSTRUCTIONS_DIR: optionalString,
    GOOGLE_OAUTH_CLIENT_ID: z
      .string()
      .trim()
      .min(1)
      .default("681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com"),
    GOOGLE_OAUTH_CLIENT_SECRET: z.string().trim().min(1).default("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"),
    GOOGLE_OAUTH_AUTHORIZE_URL: z
      .url({ error: "must be a URL" })
      .default("https://accounts.google.com/o/oauth2/v2/auth"),
    GOOGLE_OAUTH_TOKEN_URL: z.url({ error: "must be a URL" }).default("https://oauth2.googleapis.com/token"),
    GOOGLE_OAUTH_USERINFO_URL: z
      .url({ error: "must be a URL" })
      .default("https://www.googleapis.com/oauth2/v2/userinfo"),
    GOOGLE_OAUTH_REDIRECT_URI: z.url({ error: "must be a URL" }).default("https://codeassist.google.com/authcode"),
    CODE_ASSIST_BASE_URL: z.url({ error: "must be a URL" }).default("https://cloudcode-pa.googleapis.com"),
    CODE_ASSIST_MODELS: modelList("gemini-2.5-pro,gemini-2.5-flash"),
    GOOGLE_CLOUD_PROJECT: optionalString,
    PROVIDER_ALLOW_PRIVATE_URLS: optionalFlag,
    ALLOW_LOCAL_ACCOUNT_ON_NETWORK: booleanFlag(false),
    TURN_MAX_STEPS: z.coerce.number({ error: "must be a number" }).int().min(1).max(100).default(8),
    TOOL_CALLS_PER_RESPONSE: z.coerce.number({ error: "must be a number" }).int().min(1).max(100).default(8),
    TOOL_CALLS_PER_MINUTE: z.coerce.number({ error: "must be a number" }).int().min(1).max(10_000).default(30),
    USER_REQUESTS_PER_MINUTE: usageLimit,
    USER_TOKENS_PER_DAY: usageLimit,
    TOOL_TIMEOUT_MS: z.coerce.number({ error: "must be a number" }).int().min(100).max(3_600_000).default(30_000),
    MCP_SERVERS_FILE: optionalString,
    MCP_ALLOW_PRIVATE_URLS: booleanFlag(false),
    MCP_TOOL_OUTPUT_MAX_CHARS: z.coerce.number({ error: "must be a number" }).int().min(1_000).default(100_000),
    /** A per-user stdio MCP process unused this long is stopped (started again on next use); 0 = never. */
    MCP_STDIO_IDLE_MS: z.coerce.number({ error: "must be a number" }).int().min(0).max(86_400_000).default(900_000),
    PATCHBAY_ENCRYPTION_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9+/_-]{43}=?$/, { error: "must be 32 random bytes in base64 (try: openssl rand -base64 32)" })
        .optional(),
    ),
    /** Emails (comma-separated, any case) whose users see everyone's metrics. */
    ADMIN_EMAILS: z
      .string()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** Bearer token of GET /metrics (Prometheus); unset: the endpoint answers 404. */
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional()),
    TEST_DATABASE_ADMIN_URL: postgresUrl.transform((value) => value ?? "postgresql://postgres@127.0.0.1:5432/postgres"),
  })
  .superRefine((value, ctx) => {
    const pairs: [string, string | undefined, string, string | undefined][] = [
      ["AUTH_GITHUB_ID", value.AUTH_GITHUB_ID, "AUTH_GITHUB_SECRET", value.AUTH_GITHUB_SECRET],
      ["AUTH_GOOGLE_ID", value.AUTH_GOOGLE_ID, "AUTH_GOOGLE_SECRET", value.AUTH_GOOGLE_SECRET],
      ["AUTH_OIDC_ISSUER", value.AUTH_OIDC_ISSUER, "AUTH_OIDC_ID", value.AUTH_OIDC_ID],
      ["AUTH_OIDC_ID", value.AUTH_OIDC_ID, "AUTH_OIDC_SECRET", value.AUTH_OIDC_SECRET],
    ];
    if (value.NODE_ENV === "production" && value.DATABASE_URL && !value.PATCHBAY_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["PATCHBAY_ENCRYPTION_KEY"],
        message:
          "is required in production with DATABASE_URL (it encrypts tokens and keys at rest; every instance needs the same key)",
      });
    }
    if (value.PATCHBAY_WORKERS > 1 && !value.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["PATCHBAY_WORKERS"],
        message: "above 1 needs DATABASE_URL (the embedded Postgres belongs to one process)",
      });
    }
    for (const [nameA, a, nameB, b] of pairs) {
      if ((a === undefined) !== (b === undefined)) {
        const missing = a === undefined ? nameA : nameB;
        const present = a === undefined ? nameB : nameA;
        ctx.addIssue({ code: "custom", path: [missing], message: `is required when ${present} is set` });
      }
    }
    for (const [variable, message] of hostingRefusals(value)) {
      ctx.addIssue({ code: "custom", path: [variable], message });
    }
  })
  .transform((value) => ({
    ...value,
    // Users' endpoints may reach private addresses only in the single-user embedded setup by default.
    PROVIDER_ALLOW_PRIVATE_URLS: value.PROVIDER_ALLOW_PRIVATE_URLS ?? isSingleUserEmbedded(value),
  }));

export type Env = z.infer<typeof schema>;

/** Thrown when the environment is invalid; the message names every bad variable. */
const envErrorBrand = brandOf("EnvError");

export class EnvError extends Error {
  override name = "EnvError";
  readonly [envErrorBrand] = true;
}

/** True for an EnvError from any copy of this module. */
export function isEnvError(value: unknown): value is EnvError {
  return hasBrand(value, envErrorBrand);
}

/**
 * Validates an environment record (process.env in production, a plain object in tests). Blank values
 * count as unset, so `PORT=` in a copied .env.example means the default, not port 0.
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const setValues = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const result = schema.safeParse(setValues);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`);
  throw new EnvError(`Invalid Patchbay configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`);
}

export const env: Env = parseEnv(process.env);
