// Sealing is only worth anything if opening fails loudly: a sealed value must round-trip, must not
// show its plaintext, and must refuse to open after any change to any of its parts or under another
// key. The key file must be created once (0600), reused, and never silently replaced when broken.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { env } from "../env.ts";
import { AppError } from "../errors.ts";
import { decodeKey, loadOrCreateKeyFile, openSecret, openWithKey, sealSecret, sealWithKey } from "./secrets.ts";

const key = randomBytes(32);
const SECRET = "Bearer ghp_0123456789abcdefghij";

function expectUnreadable(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).code).toBe("internal:config");
  expect((thrown as AppError).message).toMatch(/could not be decrypted .*altered, or PATCHBAY_ENCRYPTION_KEY changed/);
}

/** `sealed` with one character of part `index` changed to another valid base64url character. */
function flipPart(sealed: string, index: number): string {
  const parts = sealed.split(".");
  const part = parts[index]!;
  const position = Math.floor(part.length / 2);
  const replacement = part[position] === "A" ? "B" : "A";
  parts[index] = part.slice(0, position) + replacement + part.slice(position + 1);
  return parts.join(".");
}

describe("sealWithKey / openWithKey", () => {
  it("round-trips text, including empty and non-ASCII text", () => {
    for (const plaintext of [SECRET, "", "ünïcødé ✓ 🔑", JSON.stringify({ headers: { "X-Api-Key": "k" } })]) {
      expect(openWithKey(key, sealWithKey(key, plaintext))).toBe(plaintext);
    }
  });

  it("writes the versioned v1.<iv>.<tag>.<ciphertext> format without the plaintext", () => {
    const sealed = sealWithKey(key, SECRET);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("ghp_");
    expect(Buffer.from(sealed.split(".")[3]!, "base64url").toString("utf8")).not.toContain("ghp_");
  });

  it("uses a fresh IV for every seal", () => {
    const first = sealWithKey(key, SECRET);
    const second = sealWithKey(key, SECRET);
    expect(first).not.toBe(second);
    expect(first.split(".")[1]).not.toBe(second.split(".")[1]);
  });

  it("refuses a value altered in its IV, tag or ciphertext", () => {
    const sealed = sealWithKey(key, SECRET);
    for (const index of [1, 2, 3]) expectUnreadable(() => openWithKey(key, flipPart(sealed, index)));
  });

  it("refuses a truncated, extended, reordered or unknown-version value", () => {
    const sealed = sealWithKey(key, SECRET);
    const [version, iv, tag, ciphertext] = sealed.split(".");
    expectUnreadable(() => openWithKey(key, sealed.slice(0, -2)));
    expectUnreadable(() => openWithKey(key, `${sealed}AA`));
    expectUnreadable(() => openWithKey(key, `${sealed}.extra`));
    expectUnreadable(() => openWithKey(key, [version, tag, iv, ciphertext].join(".")));
    expectUnreadable(() => openWithKey(key, ["v2", iv, tag, ciphertext].join(".")));
    expectUnreadable(() => openWithKey(key, [version, iv, tag, "not base64!"].join(".")));
    expectUnreadable(() => openWithKey(key, "plaintext"));
  });

  it("refuses a value sealed with another key", () => {
    const sealed = sealWithKey(key, SECRET);
    expectUnreadable(() => openWithKey(randomBytes(32), sealed));
  });

  it("insists on a 32-byte key", () => {
    expect(() => sealWithKey(randomBytes(16), SECRET)).toThrow(/32 bytes, not 16/);
    expect(() => openWithKey(randomBytes(31), sealWithKey(key, SECRET))).toThrow(/32 bytes, not 31/);
  });
});

describe("decodeKey", () => {
  it("accepts 32 bytes in base64 or base64url", () => {
    expect(decodeKey(key.toString("base64"), "K").equals(key)).toBe(true);
    expect(decodeKey(`${key.toString("base64url")}\n`, "K").equals(key)).toBe(true);
  });

  it("names the source of a key of the wrong size or alphabet", () => {
    expect(() => decodeKey(randomBytes(16).toString("base64"), "PATCHBAY_ENCRYPTION_KEY")).toThrow(
      /PATCHBAY_ENCRYPTION_KEY must hold 32 random bytes in base64/,
    );
    expect(() => decodeKey("not a key at all, clearly!", "K")).toThrow(/K must hold 32/);
  });
});

describe("loadOrCreateKeyFile", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "patchbay-key-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates a 0600 key file once and reuses it", async () => {
    const file = path.join(dir, "nested", "encryption-key");
    const [first, concurrent] = await Promise.all([loadOrCreateKeyFile(file), loadOrCreateKeyFile(file)]);
    expect(first).toHaveLength(32);
    expect(concurrent.equals(first)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await loadOrCreateKeyFile(file)).equals(first)).toBe(true);
    expect(openWithKey(await loadOrCreateKeyFile(file), sealWithKey(first, SECRET))).toBe(SECRET);
  });

  it("refuses a broken key file instead of replacing it", async () => {
    const file = path.join(dir, "broken-key");
    await writeFile(file, "too short");
    await expect(loadOrCreateKeyFile(file)).rejects.toThrow(
      /encryption key file .*broken-key must hold 32 random bytes/,
    );
    expect(await readFile(file, "utf8")).toBe("too short");
  });
});

describe("sealSecret / openSecret", () => {
  it("round-trip with PATCHBAY_ENCRYPTION_KEY as the instance key", async () => {
    // Set before the first use (the key is read lazily), so the test never touches the data dir.
    env.PATCHBAY_ENCRYPTION_KEY = key.toString("base64");
    const sealed = await sealSecret(SECRET);
    expect(openWithKey(key, sealed)).toBe(SECRET);
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(await openSecret(sealed)).toBe(SECRET);
    await expect(openSecret(flipPart(sealed, 3))).rejects.toThrow(/could not be decrypted/);
  });
});
