// The only reader of process.env. Every variable Patchbay understands is declared here, validated
// once with zod, and documented in .env.example. A bad value stops the process with a message that
// names the variable; nothing else in the code base touches process.env.
import { z } from "zod";

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

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: postgresUrl,
    PATCHBAY_DATA_DIR: z.string().trim().min(1).default(".data"),
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    PORT: port(3000),
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
    TEST_DATABASE_ADMIN_URL: postgresUrl.transform((value) => value ?? "postgresql://postgres@127.0.0.1:5432/postgres"),
  })
  .superRefine((value, ctx) => {
    const pairs: [string, string | undefined, string, string | undefined][] = [
      ["AUTH_GITHUB_ID", value.AUTH_GITHUB_ID, "AUTH_GITHUB_SECRET", value.AUTH_GITHUB_SECRET],
      ["AUTH_GOOGLE_ID", value.AUTH_GOOGLE_ID, "AUTH_GOOGLE_SECRET", value.AUTH_GOOGLE_SECRET],
      ["AUTH_OIDC_ISSUER", value.AUTH_OIDC_ISSUER, "AUTH_OIDC_ID", value.AUTH_OIDC_ID],
      ["AUTH_OIDC_ID", value.AUTH_OIDC_ID, "AUTH_OIDC_SECRET", value.AUTH_OIDC_SECRET],
    ];
    for (const [nameA, a, nameB, b] of pairs) {
      if ((a === undefined) !== (b === undefined)) {
        const missing = a === undefined ? nameA : nameB;
        const present = a === undefined ? nameB : nameA;
        ctx.addIssue({ code: "custom", path: [missing], message: `is required when ${present} is set` });
      }
    }
  });

export type Env = z.infer<typeof schema>;

/** Thrown when the environment is invalid; the message names every bad variable. */
export class EnvError extends Error {
  override name = "EnvError";
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
