// The Gemini API rules the fake enforces: declarations, turn alternation, functionCall ↔ functionResponse.
import { describe, expect, it } from "vitest";

import { validateGeminiRequest } from "./validate-gemini.ts";

const TOOLS = [{ functionDeclarations: [{ name: "get_time", parametersJsonSchema: { type: "object" } }] }];
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const model = (...names: string[]) => ({
  role: "model",
  parts: names.map((name, index) => ({ functionCall: { id: `c${index}`, name, args: {} } })),
});
const responses = (...names: string[]) => ({
  role: "user",
  parts: names.map((name, index) => ({ functionResponse: { id: `c${index}`, name, response: { content: "ok" } } })),
});
const check = (contents: object[], tools: object[] = TOOLS) => validateGeminiRequest({ contents, tools });

describe("validateGeminiRequest", () => {
  it("accepts calls answered in order, a retired function, and a placeholder model turn before new text", () => {
    expect(check([user("a")])).toBeUndefined();
    expect(
      check([
        user("time?"),
        model("get_time", "retired"),
        responses("get_time", "retired"),
        { role: "model", parts: [{ text: "[The previous response was interrupted before it completed.]" }] },
        user("b"),
      ]),
    ).toBeUndefined();
  });

  it.each([
    [
      "a bad function name",
      [user("a")],
      [{ functionDeclarations: [{ name: "9lives" }] }],
      /function_declarations\[0\]\.name: String should match pattern/,
    ],
    [
      "duplicate function names",
      [user("a")],
      [{ functionDeclarations: [{ name: "a" }] }, { functionDeclarations: [{ name: "a" }] }],
      /must be unique/,
    ],
    [
      "parameters outside the subset",
      [user("a")],
      [
        {
          functionDeclarations: [
            { name: "a", parameters: { type: "object", properties: { x: { type: ["string", "null"] } } } },
          ],
        },
      ],
      /properties\["x"\]\.type/,
    ],
    [
      "both parameter fields",
      [user("a")],
      [
        {
          functionDeclarations: [
            { name: "a", parameters: { type: "string" }, parametersJsonSchema: { type: "object" } },
          ],
        },
      ],
      /mutually exclusive/,
    ],
    ["no contents", [], TOOLS, /contents is not specified/],
    ["a model turn first", [model("get_time"), responses("get_time")], TOOLS, /start with a user turn/],
    [
      "two user turns in a row",
      [user("a"), model("get_time"), responses("get_time"), user("b")],
      TOOLS,
      /alternate between user and model/,
    ],
    ["empty parts", [{ role: "user", parts: [] }], TOOLS, /contents\.parts must not be empty/],
    [
      "a call without its response",
      [user("a"), model("get_time"), user("b")],
      TOOLS,
      /number of function response parts is equal.*has 1, the next turn 0/,
    ],
    ["a trailing call", [user("a"), model("get_time")], TOOLS, /number of function response parts is equal/],
    [
      "responses in another order",
      [user("a"), model("get_time", "other"), responses("other", "get_time")],
      TOOLS,
      /keep the same order/,
    ],
    [
      "a response without a call turn",
      [user("a"), { role: "model", parts: [{ text: "ok" }] }, responses("get_time")],
      TOOLS,
      /function response turn comes immediately after a function call turn/,
    ],
  ])("refuses %s", (_name, contents, tools, message) => {
    expect(check(contents, tools)).toMatch(message);
  });
});
