// Tool calls written as text: both block forms parse in order, parsed blocks leave the text, and a
// malformed or unclosed block stays in the text with a warning instead of throwing.
import { describe, expect, it } from "vitest";

import { extractHiddenToolCalls } from "./hidden-tool-calls.ts";

describe("extractHiddenToolCalls", () => {
  it("returns text without tool blocks unchanged", () => {
    expect(extractHiddenToolCalls("Just an answer.\n")).toEqual({ calls: [], text: "Just an answer.\n", warnings: [] });
  });

  it("parses a <tool_use> block and removes it from the text", () => {
    const scan = extractHiddenToolCalls(
      'Let me check.\n<tool_use><server>builtin</server><tool>current_time</tool><arguments>{"tz":"UTC"}</arguments></tool_use>\n',
    );
    expect(scan).toEqual({
      calls: [{ server: "builtin", tool: "current_time", args: { tz: "UTC" } }],
      text: "Let me check.",
      warnings: [],
    });
  });

  it("parses <use_mcp_tool> blocks with whitespace, a code fence and multi-line JSON", () => {
    const scan = extractHiddenToolCalls(`Before
<use_mcp_tool>
  <server_name> github </server_name>
  <tool_name>search_issues</tool_name>
  <arguments>
\`\`\`json
{ "query": "is:open",
  "limit": 5 }
\`\`\`
  </arguments>
</use_mcp_tool>
After`);
    expect(scan.calls).toEqual([{ server: "github", tool: "search_issues", args: { query: "is:open", limit: 5 } }]);
    expect(scan.text).toBe("Before\n\nAfter");
    expect(scan.warnings).toEqual([]);
  });

  it("keeps several calls of both forms in the order they appear", () => {
    const scan = extractHiddenToolCalls(
      "<use_mcp_tool><server_name>a</server_name><tool_name>one</tool_name><arguments>{}</arguments></use_mcp_tool>" +
        "<tool_use><server>b</server><tool>two</tool><arguments>{}</arguments></tool_use>" +
        "<tool_use><server>c</server><tool>three</tool></tool_use>",
    );
    expect(scan.calls.map((call) => `${call.server}.${call.tool}`)).toEqual(["a.one", "b.two", "c.three"]);
    expect(scan.calls[2]?.args).toEqual({});
    expect(scan.text).toBe("");
  });

  it.each([
    [
      "invalid JSON",
      "<tool_use><server>s</server><tool>t</tool><arguments>{nope}</arguments></tool_use>",
      /not valid JSON/,
    ],
    [
      "a JSON array",
      "<tool_use><server>s</server><tool>t</tool><arguments>[1]</arguments></tool_use>",
      /not a JSON object/,
    ],
    ["no tool name", "<tool_use><server>s</server><arguments>{}</arguments></tool_use>", /missing <server> or <tool>/],
    [
      "an empty server",
      "<use_mcp_tool><server_name> </server_name><tool_name>t</tool_name></use_mcp_tool>",
      /server_name/,
    ],
  ])("leaves a block with %s in the text and warns", (_, block, warning) => {
    const text = `Intro ${block} outro`;
    const scan = extractHiddenToolCalls(text);
    expect(scan.calls).toEqual([]);
    expect(scan.text).toBe(text);
    expect(scan.warnings).toHaveLength(1);
    expect(scan.warnings[0]).toMatch(warning);
  });

  it("parses good blocks next to a malformed one", () => {
    const scan = extractHiddenToolCalls(
      "<tool_use><server>s</server><tool>bad</tool><arguments>{</arguments></tool_use>\n" +
        '<tool_use><server>s</server><tool>good</tool><arguments>{"n":1}</arguments></tool_use>',
    );
    expect(scan.calls).toEqual([{ server: "s", tool: "good", args: { n: 1 } }]);
    expect(scan.text).toContain("<tool>bad</tool>");
    expect(scan.warnings).toHaveLength(1);
  });

  it("warns about a block that is never closed", () => {
    const text = "Calling <tool_use><server>s</server><tool>t</tool><arguments>{";
    const scan = extractHiddenToolCalls(text);
    expect(scan).toEqual({ calls: [], text, warnings: ["Ignored 1 tool block(s) without a closing tag."] });
  });

  it("does not throw on pathological input", () => {
    expect(() => extractHiddenToolCalls("<tool_use>".repeat(1000) + "</tool_use>")).not.toThrow();
    expect(() => extractHiddenToolCalls("<arguments>{}</arguments></use_mcp_tool>")).not.toThrow();
  });

  it("reads the talk-back short forms as calls of the built-ins", () => {
    const scan = extractHiddenToolCalls(
      'Let me ask.\n<ask_followup_question><question>Tea or coffee?</question><options>["Tea", "Coffee"]</options></ask_followup_question>\n' +
        "<attempt_completion><result>Made **tea**.</result></attempt_completion>",
    );
    expect(scan).toEqual({
      calls: [
        {
          server: "builtin",
          tool: "ask_followup_question",
          args: { question: "Tea or coffee?", options: ["Tea", "Coffee"] },
        },
        { server: "builtin", tool: "attempt_completion", args: { result: "Made **tea**." } },
      ],
      text: "Let me ask.",
      warnings: [],
    });
  });

  it.each([
    ["no options", "<question>Why?</question>", { question: "Why?" }],
    [
      "options one per line",
      "<question>Pick</question><options>\n- A\n- B\n</options>",
      { question: "Pick", options: ["A", "B"] },
    ],
  ])("reads a question with %s", (_, body, args) => {
    const scan = extractHiddenToolCalls(`<ask_followup_question>${body}</ask_followup_question>`);
    expect(scan.calls).toEqual([{ server: "builtin", tool: "ask_followup_question", args }]);
  });

  it.each([
    ["<ask_followup_question><options>[]</options></ask_followup_question>", /missing <question>/],
    ["<ask_followup_question><question>Q</question><options>[1]</options></ask_followup_question>", /JSON array/],
    ["<attempt_completion>done</attempt_completion>", /missing <result>/],
  ])("leaves a malformed talk-back block %s in the text and warns", (block, warning) => {
    const scan = extractHiddenToolCalls(block);
    expect(scan.calls).toEqual([]);
    expect(scan.text).toBe(block);
    expect(scan.warnings[0]).toMatch(warning);
  });
});
