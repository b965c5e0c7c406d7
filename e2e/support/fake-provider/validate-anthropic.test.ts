// The Messages API rules the fake enforces: tools, roles, and tool_use ↔ tool_result pairing.
import { describe, expect, it } from "vitest";

import { validateAnthropicRequest } from "./validate-anthropic.ts";

const TOOLS = [{ name: "get_time", input_schema: { type: "object", properties: {} } }];
const user = (...content: object[]) => ({ role: "user", content });
const assistant = (...content: object[]) => ({ role: "assistant", content });
const text = (value: string) => ({ type: "text", text: value });
const use = (id: string, name = "get_time") => ({ type: "tool_use", id, name, input: {} });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "12:00" });
const check = (messages: object[], tools: object[] = TOOLS) => validateAnthropicRequest({ tools, messages });

describe("validateAnthropicRequest", () => {
  it("accepts a tool round, results first then text, and a call to a tool no longer declared", () => {
    expect(check([{ role: "user", content: "time?" }])).toBeUndefined();
    expect(
      check([
        user(text("time?")),
        assistant(text("Checking."), use("toolu_1"), use("toolu_2", "retired_tool")),
        user(result("toolu_2"), result("toolu_1"), text("and thanks")),
        assistant(text("Noon.")),
      ]),
    ).toBeUndefined();
  });

  it.each([
    [
      "a bad tool name",
      [user(text("hi"))],
      [{ name: "fixture.echo", input_schema: { type: "object" } }],
      /tools\.0\.name: String should match pattern/,
    ],
    ["duplicate tool names", [user(text("hi"))], [...TOOLS, ...TOOLS], /tools\.1\.name: tool names must be unique/],
    [
      "a non-object input_schema",
      [user(text("hi"))],
      [{ name: "a", input_schema: { type: "string" } }],
      /tools\.0\.input_schema\.type: Input should be 'object'/,
    ],
    ["no messages", [], TOOLS, /at least one message/],
    ["an assistant first", [assistant(text("hi")), user(text("hi"))], TOOLS, /first message must use the "user" role/],
    ["two user messages in a row", [user(text("a")), user(text("b"))], TOOLS, /roles must alternate/],
    ["an empty text block", [user(text(""))], TOOLS, /text content blocks must be non-empty/],
    [
      "a call without its result",
      [user(text("a")), assistant(use("toolu_1")), user(text("b"))],
      TOOLS,
      /messages\.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
    ],
    [
      "a trailing call",
      [user(text("a")), assistant(use("toolu_1"))],
      TOOLS,
      /`tool_use` ids were found without `tool_result`.*toolu_1/,
    ],
    [
      "one of two results missing",
      [user(text("a")), assistant(use("t1"), use("t2")), user(result("t1"))],
      TOOLS,
      /without `tool_result`.*: t2/,
    ],
    [
      "a result after text",
      [user(text("a")), assistant(use("t1")), user(text("b"), result("t1"))],
      TOOLS,
      /tool_result blocks must come before any other content/,
    ],
    [
      "a result without its call",
      [user(text("a")), assistant(text("ok")), user(result("t9"))],
      TOOLS,
      /unexpected `tool_use_id` found in `tool_result` blocks: t9/,
    ],
    [
      "a result for a call two messages back",
      [user(text("a")), assistant(use("t1")), user(result("t1")), assistant(text("ok")), user(result("t1"))],
      TOOLS,
      /unexpected `tool_use_id`.*t1/,
    ],
    [
      "a reused tool_use id",
      [user(text("a")), assistant(use("t1")), user(result("t1")), assistant(use("t1")), user(result("t1"))],
      TOOLS,
      /`tool_use` ids must be unique \(t1\)/,
    ],
    ["tool blocks without tools", [user(text("a")), assistant(use("t1")), user(result("t1"))], [], /must define tools/],
  ])("refuses %s", (_name, messages, tools, message) => {
    expect(check(messages, tools)).toMatch(message);
  });
});
