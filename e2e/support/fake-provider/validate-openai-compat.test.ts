// The Chat Completions rules the fake enforces: function tools and tool_calls ↔ tool message pairing.
import { describe, expect, it } from "vitest";

import { validateOpenAICompatRequest } from "./validate-openai-compat.ts";

const TOOLS = [{ type: "function", function: { name: "get_time", parameters: { type: "object" } } }];
const user = (content: string) => ({ role: "user", content });
const calls = (...ids: string[]) => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "get_time", arguments: "{}" } })),
});
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "12:00" });
const check = (messages: object[], tools: object[] = TOOLS) => validateOpenAICompatRequest({ messages, tools });

describe("validateOpenAICompatRequest", () => {
  it("accepts answered calls in any order, then more conversation", () => {
    expect(
      check([{ role: "system", content: "s" }, user("a"), calls("c1", "c2"), tool("c2"), tool("c1"), user("b")]),
    ).toBeUndefined();
  });

  it.each([
    [
      "a bad tool name",
      [user("a")],
      [{ type: "function", function: { name: "a.b" } }],
      /Invalid 'tools\[0\]\.function\.name'/,
    ],
    [
      "non-object parameters",
      [user("a")],
      [{ type: "function", function: { name: "a", parameters: { type: "string" } } }],
      /Invalid schema/,
    ],
    ["no messages", [], TOOLS, /empty array/],
    [
      "a tool message without its call",
      [user("a"), tool("c9")],
      TOOLS,
      /role 'tool' must be a response to a preceeding message with 'tool_calls'/,
    ],
    [
      "a tool message after the round closed",
      [user("a"), calls("c1"), tool("c1"), { role: "assistant", content: "ok" }, tool("c1")],
      TOOLS,
      /must be a response to a preceeding message/,
    ],
    [
      "a call unanswered before the next user message",
      [user("a"), calls("c1", "c2"), tool("c1"), user("b")],
      TOOLS,
      /did not have response messages: c2/,
    ],
    ["a trailing call", [user("a"), calls("c1")], TOOLS, /did not have response messages: c1/],
    ["an unknown role", [{ role: "function", content: "x" }], TOOLS, /Invalid value: 'function'/],
  ])("refuses %s", (_name, messages, tools, message) => {
    expect(check(messages, tools)).toMatch(message);
  });
});
