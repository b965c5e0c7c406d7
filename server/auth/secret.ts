// The key Auth.js signs and encrypts its cookies with. AUTH_SECRET wins; without it Patchbay makes
// one on first start and keeps it in PATCHBAY_DATA_DIR (mode 0600) so sign-ins survive restarts.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { env } from "../env.ts";

let cached: Promise<string> | undefined;

async function loadOrCreateSecret(): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.resolve(env.PATCHBAY_DATA_DIR, "auth-secret");
  const existing = (await readFile(file, "utf8").catch(() => "")).trim();
  if (existing.length >= 32) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(33).toString("base64url");
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

export function getAuthSecret(): Promise<string> {
  cached ??= loadOrCreateSecret();
  return cached;
}
