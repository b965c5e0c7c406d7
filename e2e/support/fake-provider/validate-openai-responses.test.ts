// The Responses API rules the fake enforces: function tools, call/output pairing, stateless requests.
import { describe, expect, it } from "vitest";

import { validateOpenAIResponsesRequest } from "./validate-openai-responses.ts";

const TOOLS = [{ type: "function", name: "get_time", parameters: { type: "object", properties: {} }, strict: false }];
const user = (text: string) => ({ role: "user", content: [{ type: "input_text", text }] });
const call = (callId: string, name = "get_time") => ({ type: "function_call", call_id: callId, name, arguments: "{}" });
const output = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "12:00" });
const check = (input: object[], extra: object = {}) =>
  validateOpenAIResponsesRequest({ model: "gpt-5", tools: TOOLS, input, store: false, ...extra });

describe("validateOpenAIResponsesRequest", () => {
  it("accepts paired calls (outputs in any order, a retired tool too) and encrypted reasoning", () => {
    const reasoning = { type: "reasoning", id: "rs_1", encrypted_content: "gAAAA", summary: [] };
    expect(
      check([user("time?"), reasoning, call("c1"), call("c2", "retired"), output("c2"), output("c1"), user("thanks")]),
    ).toBeUndefined();
    expect(validateOpenAIResponsesRequest({ input: "hi" })).toBeUndefined();
    expect(check([user("a"), { type: "item_reference", id: "msg_1" }], { store: true })).toBeUndefined();
  });

  it.each([
    ["a bad tool name", [user("a")], { tools: [{ ...TOOLS[0], name: "fixture.echo" }] }, /Invalid 'tools\[0\]\.name'/],
    ["duplicate tool names", [user("a")], { tools: [...TOOLS, ...TOOLS] }, /tool names must be unique/],
    [
      "non-object parameters",
      [user("a")],
      { tools: [{ ...TOOLS[0], parameters: { type: "array" } }] },
      /Invalid schema for function 'get_time'/,
    ],
    [
      "an output without its call",
      [user("a"), output("c9")],
      {},
      /No tool call found for function call output with call_id c9\./,
    ],
    [
      "an output before its call",
      [user("a"), output("c1"), call("c1")],
      {},
      /No tool call found for function call output with call_id c1\./,
    ],
    [
      "a call unanswered before the next user message",
      [user("a"), call("c1"), user("b"), output("c1")],
      {},
      /No tool output found for function call c1\./,
    ],
    ["a trailing call", [user("a"), call("c1")], {}, /No tool output found for function call c1\./],
    [
      "a duplicate call id",
      [user("a"), call("c1"), output("c1"), call("c1"), output("c1")],
      {},
      /duplicate function_call with call_id c1/,
    ],
    [
      "an item reference with store false",
      [user("a"), { type: "item_reference", id: "msg_1" }],
      {},
      /Item with id 'msg_1' not found/,
    ],
    [
      "reasoning without encrypted content with store false",
      [user("a"), { type: "reasoning", id: "rs_1", summary: [] }],
      {},
      /Item with id 'rs_1' not found/,
    ],
    ["previous_response_id with store false", [user("a")], { previous_response_id: "resp_1" }, /store is set to false/],
  ])("refuses %s", (_name, input, extra, message) => {
    expect(check(input, extra)).toMatch(message);
  });
});
