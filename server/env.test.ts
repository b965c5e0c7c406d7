// parseEnv is the one gate for configuration: an empty environment yields the embedded defaults,
// blank values count as unset (a copied .env.example with `PORT=` must not change behaviour), and
// every bad value stops the process with an EnvError that names the variable to fix.
import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { EnvError, parseEnv } from "./env.ts";

const DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
const LONG_SECRET = "x".repeat(32);
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");
const PRODUCTION_DB = { NODE_ENV: "production" as const, DATABASE_URL: "postgres://db.example/patchbay" };

/** The EnvError parseEnv throws for `source`; fails the test if it does not throw one. */
function envErrorFor(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("parseEnv defaults", () => {
  it("gives the embedded defaults for an empty environment", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.PATCHBAY_DATA_DIR).toBe(".data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TEST_DATABASE_ADMIN_URL).toBe(DEFAULT_ADMIN_URL);
    expect(env.NODE_ENV).toBe("development");
    expect(env.AUTH_OIDC_NAME).toBe("Single sign-on");
    expect(env.LOCAL_IDP_PORT).toBe(0);
  });

  it("treats empty and blank strings as unset", () => {
    const blank = {
      NODE_ENV: "",
      DATABASE_URL: "",
      PATCHBAY_DATA_DIR: "",
      HOST: "  ",
      PORT: "",
      AUTH_URL: "",
      AUTH_SECRET: "",
      AUTH_GITHUB_ID: "",
      AUTH_GITHUB_SECRET: " ",
      AUTH_GOOGLE_ID: "",
      AUTH_GOOGLE_SECRET: "",
      AUTH_OIDC_ISSUER: "",
      AUTH_OIDC_ID: "",
      AUTH_OIDC_SECRET: "",
      AUTH_OIDC_NAME: "",
      LOCAL_IDP_PORT: "",
      TEST_DATABASE_ADMIN_URL: "",
    };
    expect(parseEnv(blank)).toEqual(parseEnv({}));
  });

  it("keeps set values and trims them", () => {
    const env = parseEnv({
      DATABASE_URL: " postgres://db.example/patchbay ",
      PORT: "8080",
      HOST: "0.0.0.0",
      AUTH_SECRET: LONG_SECRET,
      ALLOW_LOCAL_ACCOUNT_ON_NETWORK: "true",
    });
    expect(env.DATABASE_URL).toBe("postgres://db.example/patchbay");
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.AUTH_SECRET).toBe(LONG_SECRET);
  });
});

describe("per-user usage limits", () => {
  it("are off when unset or 0, and whole numbers when set", () => {
    expect(parseEnv({})).toMatchObject({ USER_REQUESTS_PER_MINUTE: null, USER_TOKENS_PER_DAY: null });
    expect(parseEnv({ USER_REQUESTS_PER_MINUTE: "0", USER_TOKENS_PER_DAY: "0" })).toMatchObject({
      USER_REQUESTS_PER_MINUTE: null,
      USER_TOKENS_PER_DAY: null,
    });
    expect(parseEnv({ USER_REQUESTS_PER_MINUTE: "5", USER_TOKENS_PER_DAY: "200000" })).toMatchObject({
      USER_REQUESTS_PER_MINUTE: 5,
      USER_TOKENS_PER_DAY: 200_000,
    });
  });

  it("name the variable when the value is not a whole number", () => {
    expect(envErrorFor({ USER_TOKENS_PER_DAY: "lots" }).message).toMatch(/USER_TOKENS_PER_DAY: must be a whole number/);
    expect(envErrorFor({ USER_REQUESTS_PER_MINUTE: "-1" }).message).toMatch(
      /USER_REQUESTS_PER_MINUTE: must be 0 or more/,
    );
  });
});

describe("parseEnv rejects bad configuration", () => {
  it("rejects a DATABASE_URL that is not postgres", () => {
    expect(envErrorFor({ DATABASE_URL: "mysql://x" }).message).toMatch(/DATABASE_URL: must be a postgres/);
  });

  it("rejects an AUTH_SECRET shorter than 32 characters", () => {
    expect(envErrorFor({ AUTH_SECRET: "x".repeat(31) }).message).toContain("AUTH_SECRET");
  });

  it("rejects AUTH_GITHUB_ID without AUTH_GITHUB_SECRET, naming the missing one", () => {
    const { message } = envErrorFor({ AUTH_GITHUB_ID: "client-id" });
    expect(message).toContain("AUTH_GITHUB_SECRET: is required when AUTH_GITHUB_ID is set");
  });

  it("rejects AUTH_OIDC_ISSUER without AUTH_OIDC_ID", () => {
    const { message } = envErrorFor({ AUTH_OIDC_ISSUER: "https://id.example.test" });
    expect(message).toContain("AUTH_OIDC_ID: is required when AUTH_OIDC_ISSUER is set");
  });

  it("rejects a PORT that is not a number", () => {
    expect(envErrorFor({ PORT: "abc" }).message).toMatch(/PORT: must be a port number/);
  });

  it("names every bad variable in one message", () => {
    const { message } = envErrorFor({ PORT: "abc", DATABASE_URL: "mysql://x" });
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL");
  });

  it("requires PATCHBAY_ENCRYPTION_KEY in production with DATABASE_URL, saying why", () => {
    const { message } = envErrorFor(PRODUCTION_DB);
    expect(message).toContain("PATCHBAY_ENCRYPTION_KEY: is required in production with DATABASE_URL");
    expect(message).toContain("encrypts tokens and keys at rest");
    expect(parseEnv({ ...PRODUCTION_DB, PATCHBAY_ENCRYPTION_KEY: ENCRYPTION_KEY }).PATCHBAY_ENCRYPTION_KEY).toBe(
      ENCRYPTION_KEY,
    );
    expect(() => parseEnv({ NODE_ENV: "production" })).not.toThrow(); // embedded database: a key file is kept
    expect(() => parseEnv({ DATABASE_URL: PRODUCTION_DB.DATABASE_URL })).not.toThrow(); // development
  });

  it("stops `npm start` at once with that message when the key is missing", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const started = spawnSync(process.execPath, ["--import", "tsx", "server/cli/start.ts"], {
      cwd: root,
      env: PRODUCTION_DB,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain("PATCHBAY_ENCRYPTION_KEY: is required in production with DATABASE_URL");
  }, 35_000);
});
