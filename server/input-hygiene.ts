// Input hygiene at the edge. Text with a NUL byte (U+0000) or a lone UTF-16 surrogate cannot be
// stored by Postgres (text and jsonb refuse it) and is never meant by a person, so every string a
// client sends — values and object keys, at any depth — is checked before a schema or the database
// sees it, and refused with a 400 that names the field. `plainText()` is the same rule as a zod
// building block for edges that parse on their own (route handlers).
import { z } from "zod";

import { AppError } from "./errors.ts";

/** NUL, or a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be accepted, in words, or null when it is fine. */
export function unsafeTextReason(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000), which text cannot hold";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (broken Unicode)";
  return null;
}

type Finding = { path: PropertyKey[]; reason: string };

function findUnsafeText(value: unknown, path: PropertyKey[], seen: Set<object>, depth: number): Finding | null {
  if (typeof value === "string") {
    const reason = unsafeTextReason(value);
    return reason ? { path, reason } : null;
  }
  if (typeof value !== "object" || value === null || seen.has(value) || depth > 64) return null;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnsafeText(item, [...path, index], seen, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (value instanceof Map || value instanceof Set) {
    for (const [key, item] of value instanceof Map ? value.entries() : [...value].entries()) {
      const found =
        findUnsafeText(key, [...path, "(key)"], seen, depth + 1) ??
        findUnsafeText(item, [...path, typeof key === "string" ? key : String(key)], seen, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyReason = unsafeTextReason(key);
    if (keyReason) return { path: [...path, "(a field name)"], reason: keyReason };
    const found = findUnsafeText(item, [...path, key], seen, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Throws `bad_request:api` naming the field when any string in `input` has a NUL or a lone surrogate. */
export function rejectUnsafeText(input: unknown): void {
  const found = findUnsafeText(input, [], new Set(), 0);
  if (!found) return;
  const field = found.path.length > 0 ? found.path.map(String).join(".") : "input";
  throw new AppError("bad_request:api", `Check the input — ${field}: ${found.reason}.`, {
    issues: [{ path: found.path, message: found.reason }],
  });
}

/** A zod string that refuses NUL characters and lone surrogates, with the reason in words. */
export function plainText(): z.ZodString {
  return z.string().refine((text) => unsafeTextReason(text) === null, {
    error: (issue) => unsafeTextReason(String(issue.input)) ?? "is not valid text",
  });
}
