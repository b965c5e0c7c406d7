// Input hygiene: NUL bytes and lone surrogates are refused anywhere in an input (values and keys,
// at any depth) with a 400 naming the field; ordinary text, emoji (paired surrogates) included, passes.
import { describe, expect, it } from "vitest";

import { isAppError } from "./errors.ts";
import { plainText, rejectUnsafeText, unsafeTextReason } from "./input-hygiene.ts";

function refusalOf(input: unknown) {
  try {
    rejectUnsafeText(input);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  return null;
}

describe("rejectUnsafeText", () => {
  it.each([
    ["plain text", { text: "hello" }],
    ["emoji (a surrogate pair)", { text: "ship it 🚀" }],
    ["non-Latin text", { text: "Grüße, 你好, مرحبا" }],
    ["numbers, booleans, null", { a: 1, b: true, c: null, d: [1, 2] }],
  ])("accepts %s", (_what, input) => {
    expect(refusalOf(input)).toBeNull();
  });

  it.each([
    ["a NUL byte in a value", { sessionId: "s1", text: "a\u0000b" }, "text", "NUL character"],
    ["a lone high surrogate", { text: "broken \ud83d" }, "text", "unpaired UTF-16 surrogate"],
    ["a lone low surrogate", { text: "\ude80 broken" }, "text", "unpaired UTF-16 surrogate"],
    ["a NUL deep in an array", { args: { list: ["ok", "no\u0000"] } }, "args.list.1", "NUL character"],
    ["a NUL in a field name", { ["ke\u0000y"]: "v" }, "(a field name)", "NUL character"],
    ["a bare string", "\u0000", "input", "NUL character"],
  ])("refuses %s with a 400 naming the field", (_what, input, field, reason) => {
    const error = refusalOf(input);
    expect(error?.code).toBe("bad_request:api");
    expect(error?.status).toBe(400);
    expect(error?.message).toContain(`${field}: contains`);
    expect(error?.message).toContain(reason);
    expect(error?.issues).toHaveLength(1);
  });

  it("survives a cycle", () => {
    const cyclic: Record<string, unknown> = { text: "ok" };
    cyclic.self = cyclic;
    expect(refusalOf(cyclic)).toBeNull();
  });
});

describe("plainText", () => {
  it("is the same rule as a zod schema", () => {
    expect(plainText().safeParse("fine 🚀").success).toBe(true);
    const refused = plainText().safeParse("x\u0000");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(unsafeTextReason("x\u0000"));
  });
});
