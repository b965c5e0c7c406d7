// Encryption at rest for connector secrets (and later tokens): AES-256-GCM, one random 96-bit IV per
// value, sealed as `v1.<iv>.<tag>.<ciphertext>` (base64url). The version prefix lets a later format
// or key rotation coexist with rows written today. The key is PATCHBAY_ENCRYPTION_KEY or, when unset,
// one generated on first use and kept in PATCHBAY_DATA_DIR/encryption-key (mode 0600). Losing or
// changing that key makes every stored secret unreadable, so an existing key file is never replaced.
// A sealed value that was altered, or was sealed with another key, fails to open: it never decrypts
// to garbage.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { env } from "../env.ts";
import { AppError } from "../errors.ts";

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`An encryption key must be ${KEY_BYTES} bytes, not ${key.length}.`);
}

function unreadable(reason: string, cause?: unknown): AppError {
  return new AppError(
    "internal:config",
    `A stored secret could not be decrypted (${reason}): it was altered, or PATCHBAY_ENCRYPTION_KEY changed since it was saved.`,
    { cause },
  );
}

function decodePart(part: string | undefined, expectedBytes?: number): Buffer {
  if (part === undefined || !BASE64URL.test(part)) throw unreadable("malformed value");
  const bytes = Buffer.from(part, "base64url");
  if (expectedBytes !== undefined && bytes.length !== expectedBytes) throw unreadable("malformed value");
  return bytes;
}

/** Encrypts `plaintext` with a 32-byte key; pure apart from the random IV. */
export function sealWithKey(key: Buffer, plaintext: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, ...[iv, tag, ciphertext].map((bytes) => bytes.toString("base64url"))].join(".");
}

/** Decrypts a value from sealWithKey; throws internal:config when it was altered or sealed with another key. */
export function openWithKey(key: Buffer, sealed: string): string {
  assertKey(key);
  const parts = sealed.split(".");
  if (parts.length !== 4) throw unreadable("malformed value");
  if (parts[0] !== VERSION) throw unreadable(`unknown format "${parts[0]}"`);
  const iv = decodePart(parts[1], IV_BYTES);
  const tag = decodePart(parts[2], TAG_BYTES);
  const ciphertext = decodePart(parts[3]);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch (error) {
    throw unreadable("authentication failed", error);
  }
}

/** Reads a base64 / base64url key and insists on exactly 32 bytes. */
export function decodeKey(encoded: string, source: string): Buffer {
  const trimmed = encoded.trim();
  const key = /^[A-Za-z0-9+/_-]+=*$/.test(trimmed) ? Buffer.from(trimmed, "base64") : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new AppError(
      "internal:config",
      `${source} must hold ${KEY_BYTES} random bytes in base64 (try: openssl rand -base64 32).`,
    );
  }
  return key;
}

/** The key kept in `file`, created (mode 0600) when missing; an unreadable or malformed file is an error. */
export async function loadOrCreateKeyFile(file: string): Promise<Buffer> {
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new AppError("internal:config", `The encryption key file ${file} could not be read.`, { cause: error });
  });
  if (existing !== undefined) return decodeKey(existing, `The encryption key file ${file}`);
  await mkdir(path.dirname(file), { recursive: true });
  try {
    // "wx": if another process created the file meanwhile, keep its key rather than ours.
    await writeFile(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new AppError("internal:config", `The encryption key file ${file} could not be written.`, { cause: error });
    }
  }
  return decodeKey(await readFile(file, "utf8"), `The encryption key file ${file}`);
}

let cachedKey: Promise<Buffer> | undefined;

/** The process-wide key: PATCHBAY_ENCRYPTION_KEY, else the key file in PATCHBAY_DATA_DIR (created once). */
export function getEncryptionKey(): Promise<Buffer> {
  cachedKey ??= (
    env.PATCHBAY_ENCRYPTION_KEY
      ? Promise.resolve(decodeKey(env.PATCHBAY_ENCRYPTION_KEY, "PATCHBAY_ENCRYPTION_KEY"))
      : loadOrCreateKeyFile(path.resolve(env.PATCHBAY_DATA_DIR, "encryption-key"))
  ).catch((error: unknown) => {
    cachedKey = undefined;
    throw error;
  });
  return cachedKey;
}

/** Encrypts a secret with the instance key. */
export async function sealSecret(plaintext: string): Promise<string> {
  return sealWithKey(await getEncryptionKey(), plaintext);
}

/** Decrypts a secret sealed by sealSecret; throws internal:config when altered or sealed with another key. */
export async function openSecret(sealed: string): Promise<string> {
  return openWithKey(await getEncryptionKey(), sealed);
}
