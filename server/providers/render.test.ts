// The renderer as a pure function: canonical transcripts in, AI SDK messages / tools / options out.
// The wire bodies these produce at each provider are checked in render-wire.test.ts.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";

import type { CanonicalMessage, ProviderId, Transcript } from "../core/canonical.ts";
import { renderRequest, type RenderInput } from "./render.ts";
import {
  ANTHROPIC_SIGNATURE,
  GOOGLE_SIGNATURE,
  GOOGLE_TEXT_SIGNATURE,
  OPENAI_ENCRYPTED,
  snapshot,
  toolRound,
} from "../../e2e/support/testbeds/transcripts.ts";
import { exposeToolName } from "../core/tool-names.ts";

const render = (provider: ProviderId, transcript: Transcript, extra: Partial<RenderInput> = {}) =>
  renderRequest({
    provider,
    modelId: provider === "openai" ? "gpt-5.1" : "m",
    transcript,
    snapshot,
    isFollowUp: true,
    ...extra,
  });

const assistantOf = (messages: ModelMessage[]) => messages.find((message) => message.role === "assistant");

const expectedResults = (id1: string, id2: string) => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: id1,
      toolName: "builtin_current_time",
      output: { type: "text", value: "12:00" },
    },
    {
      type: "tool-result",
      toolCallId: id2,
      toolName: "github_search_issues",
      output: { type: "json", value: { count: 2 } },
    },
  ],
});

describe("renderRequest: history for the provider that produced it", () => {
  it.each([
    ["anthropic", { anthropic: { signature: ANTHROPIC_SIGNATURE } }, undefined, undefined],
    [
      "openai",
      { openai: { itemId: "rs_1", reasoningEncryptedContent: OPENAI_ENCRYPTED } },
      { openai: { itemId: "msg_1" } },
      { openai: { itemId: "fc_1" } },
    ],
    [
      "google",
      undefined,
      { google: { thoughtSignature: GOOGLE_TEXT_SIGNATURE } },
      { google: { thoughtSignature: GOOGLE_SIGNATURE } },
    ],
  ] as const)(
    "%s: provider ids, provider data on the parts, results in call order",
    (provider, reasoning, text, call) => {
      const { messages } = render(provider, toolRound(provider));
      const content = [
        ...(reasoning
          ? [{ type: "reasoning", text: "I should look up the time and issues.", providerOptions: reasoning }]
          : []),
        { type: "text", text: "Let me check.", ...(text && { providerOptions: text }) },
        {
          type: "tool-call",
          toolCallId: `${provider}-native-1`,
          toolName: "builtin_current_time",
          input: {},
          ...(call && { providerOptions: call }),
        },
        {
          type: "tool-call",
          toolCallId: `${provider}-native-2`,
          toolName: "github_search_issues",
          input: { query: "bug" },
        },
      ];
      expect(messages).toEqual([
        { role: "user", content: [{ type: "text", text: "What time is it, and any bugs?" }] },
        { role: "assistant", content },
        expectedResults(`${provider}-native-1`, `${provider}-native-2`),
      ]);
    },
  );
});

const placeholderSigned = { providerOptions: { google: { thoughtSignature: "skip_thought_signature_validator" } } };

describe("renderRequest: switching provider mid-history", () => {
  it.each([
    ["anthropic", "openai"],
    ["anthropic", "google"],
    ["openai", "anthropic"],
    ["google", "anthropic"],
    ["google", "openai"],
  ] as const)("%s history rendered for %s: canonical ids, no foreign data, no foreign reasoning", (from, to) => {
    const { messages } = render(to, toolRound(from));
    // Gemini gets Google's documented placeholder signature on every call it did not make.
    const signed = to === "google" ? placeholderSigned : {};
    expect(assistantOf(messages)).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "call_c1", toolName: "builtin_current_time", input: {}, ...signed },
        {
          type: "tool-call",
          toolCallId: "call_c2",
          toolName: "github_search_issues",
          input: { query: "bug" },
          ...signed,
        },
      ],
    });
    expect(messages[2]).toEqual(expectedResults("call_c1", "call_c2"));
  });
});

describe("renderRequest: provider data only for the account and endpoint that produced it", () => {
  const origins = {
    anthropic: [
      { account: "acct-key-1", endpoint: "anthropic-messages" },
      { account: "acct-key-2", endpoint: "anthropic-messages" },
    ],
    openai: [
      { account: "acct-key-1", endpoint: "openai-responses" },
      { account: "acct-chatgpt", endpoint: "chatgpt-codex" },
    ],
    google: [
      { account: "acct-key-1", endpoint: "gemini-api" },
      { account: "acct-code-assist", endpoint: "code-assist" },
    ],
  } as const;
  const plain = {
    role: "assistant",
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool-call", toolCallId: "call_c1", toolName: "builtin_current_time", input: {} },
      { type: "tool-call", toolCallId: "call_c2", toolName: "github_search_issues", input: { query: "bug" } },
    ],
  };

  it.each(["anthropic", "openai", "google"] as const)(
    "%s: another account's history gets canonical ids and none of its signatures or encrypted reasoning",
    (provider) => {
      const [from, to] = origins[provider];
      const { messages } = render(provider, toolRound(provider, "s", from), { origin: to });
      const signed = provider === "google" ? placeholderSigned : {};
      expect(assistantOf(messages)).toEqual({
        ...plain,
        content: plain.content.map((part) => (part.type === "tool-call" ? { ...part, ...signed } : part)),
      });
      expect(messages[2]).toEqual(expectedResults("call_c1", "call_c2"));
      const same = render(provider, toolRound(provider, "s", from), { origin: from }).messages;
      expect(same).toEqual(render(provider, toolRound(provider)).messages); // what today's rows render to
    },
  );

  it("treats the same account through another endpoint as foreign", () => {
    const stored = { account: "acct-1", endpoint: "openai-responses" };
    const { messages } = render("openai", toolRound("openai", "s", stored), {
      origin: { account: "acct-1", endpoint: "chatgpt-codex" },
    });
    expect(assistantOf(messages)).toEqual(plain);
  });

  it("keeps rows stored without an origin working for the server-wide key, and only there", () => {
    const server = { account: "server", endpoint: "openai-responses" };
    const legacy = toolRound("openai");
    expect(render("openai", legacy, { origin: server }).messages).toEqual(render("openai", legacy).messages);
    expect(JSON.stringify(render("openai", legacy, { origin: server }).messages)).toContain(OPENAI_ENCRYPTED);
    const forAccount = render("openai", legacy, { origin: { account: "acct-1", endpoint: "openai-responses" } });
    expect(assistantOf(forAccount.messages)).toEqual(plain);
  });
});

describe("renderRequest: ordering and dangling calls", () => {
  const call = (id: string, name = "builtin.current_time") => ({ type: "tool-call" as const, id, name, args: {} });
  const result = (callId: string, output = "r") => ({
    type: "tool-result" as const,
    callId,
    name: "builtin.current_time",
    output,
    isError: false,
  });

  it("drops a call without a result, and an assistant message left empty, merging the user messages", () => {
    const messages: CanonicalMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "first" }] },
      { id: "2", role: "assistant", parts: [call("call_dangling")] },
      { id: "3", role: "user", parts: [{ type: "text", text: "second" }] },
      { id: "4", role: "assistant", parts: [{ type: "text", text: "partial" }, call("call_cancelled")] },
    ];
    expect(render("anthropic", { messages }).messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "partial" }] },
    ]);
  });

  it("puts results given out of order or split over tool messages into one message in call order", () => {
    const messages: CanonicalMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "go" }] },
      { id: "2", role: "assistant", parts: [call("call_a"), call("call_b"), call("call_c")] },
      { id: "3", role: "tool", parts: [result("call_c", "C"), result("call_a", "A")] },
      { id: "4", role: "tool", parts: [result("call_b", "B"), result("call_orphan", "X")] },
    ];
    const rendered = render("google", { messages }).messages;
    expect(rendered).toHaveLength(3);
    const tool = rendered[2];
    expect(tool?.role).toBe("tool");
    const content = tool?.role === "tool" ? tool.content : [];
    expect(content.map((part) => (part.type === "tool-result" ? [part.toolCallId, part.output] : []))).toEqual([
      ["call_a", { type: "text", value: "A" }],
      ["call_b", { type: "text", value: "B" }],
      ["call_c", { type: "text", value: "C" }],
    ]);
  });

  it("renders error results as error outputs", () => {
    const messages: CanonicalMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "go" }] },
      { id: "2", role: "assistant", parts: [call("call_a"), call("call_b")] },
      {
        id: "3",
        role: "tool",
        parts: [
          { ...result("call_a", "boom"), isError: true },
          { type: "tool-result", callId: "call_b", name: "builtin.current_time", output: { code: 1 }, isError: true },
        ],
      },
    ];
    const outputsFor = (provider: "anthropic" | "openai" | "google") => {
      const tool = render(provider, { messages }).messages[2];
      return tool?.role === "tool"
        ? tool.content.map((part) => (part.type === "tool-result" ? part.output : null))
        : [];
    };
    // Older rows' shapes become the canonical {code, message}; the OpenAI and Google SDKs add the
    // `error` key themselves, so they get the inner object (render-wire.test.ts checks the wire).
    const inner = [
      { code: "tool_error", message: "boom" },
      { code: "tool_error", message: '{"code":1}' },
    ];
    expect(outputsFor("openai")).toEqual(inner.map((value) => ({ type: "error-json", value })));
    expect(outputsFor("google")).toEqual(inner.map((value) => ({ type: "error-json", value })));
    expect(outputsFor("anthropic")).toEqual(inner.map((error) => ({ type: "error-json", value: { error } })));
  });

  it("names a historical call to a tool no longer in the snapshot deterministically", () => {
    const messages: CanonicalMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "go" }] },
      { id: "2", role: "assistant", parts: [call("call_a", "removed-server.old.tool")] },
      { id: "3", role: "tool", parts: [{ ...result("call_a"), name: "removed-server.old.tool" }] },
    ];
    const rendered = render("anthropic", { messages }).messages;
    expect(exposeToolName("removed-server.old.tool")).toBe("removed-server_old_tool");
    expect(JSON.stringify(rendered)).toContain('"toolName":"removed-server_old_tool"');
    expect(JSON.stringify(rendered)).not.toContain("removed-server.old.tool");
  });
});

describe("renderRequest: tools and options", () => {
  it("declares every snapshot tool on first requests and follow-ups, keyed by exposed name", () => {
    for (const isFollowUp of [false, true]) {
      const call = render("anthropic", toolRound("anthropic"), { isFollowUp });
      expect(Object.keys(call.tools)).toEqual(["builtin_current_time", "github_search_issues"]);
      expect(call.toolNames).toEqual(["builtin_current_time", "github_search_issues"]);
      expect(call.options.tools).toBe(call.tools);
      expect(call.tools.github_search_issues?.description).toBe("Search issues.");
    }
  });

  it("converts Gemini tool schemas to the OpenAPI subset and passes others through", async () => {
    const google = render("google", toolRound("google")).tools.github_search_issues?.inputSchema;
    const anthropic = render("anthropic", toolRound("google")).tools.github_search_issues?.inputSchema;
    const schemaOf = async (schema: unknown) => (await (schema as { jsonSchema: unknown }).jsonSchema) as object;
    expect(await schemaOf(google)).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        state: { type: "string", enum: ["open", "closed"] },
        kind: { type: "string", enum: ["issue"] },
        limit: { type: "integer", nullable: true },
      },
      required: ["query"],
    });
    expect(await schemaOf(anthropic)).toEqual(snapshot.tools[1]?.inputSchema);
  });

  it.each([
    ["gpt-5.1", false, { store: false, include: ["reasoning.encrypted_content"] }],
    ["gpt-5.1", true, { store: false, include: ["reasoning.encrypted_content"], parallelToolCalls: false }],
    ["o4-mini", true, { store: false, include: ["reasoning.encrypted_content"], parallelToolCalls: false }],
    ["gpt-4.1", true, { store: false, parallelToolCalls: false }],
  ])("OpenAI %s (follow-up %s): stateless Responses options", (modelId, isFollowUp, openai) => {
    const call = render("openai", toolRound("openai"), { modelId, isFollowUp });
    expect(call.providerOptions).toEqual({ openai });
    expect(call.options.providerOptions).toEqual({ openai });
  });

  it("drops OpenAI reasoning for an OpenAI model without reasoning, which would reject the item", () => {
    const { messages } = render("openai", toolRound("openai"), { modelId: "gpt-4.1" });
    expect(JSON.stringify(messages)).not.toContain('"reasoning"');
    expect(JSON.stringify(messages)).toContain('"toolCallId":"openai-native-1"');
  });

  it("passes the system prompt as `system` and as streamText `instructions`", () => {
    const call = render("anthropic", toolRound("anthropic"));
    expect(call.system).toBe("You are helpful.");
    expect(call.options).toMatchObject({ instructions: "You are helpful.", messages: call.messages });
    expect(render("google", { messages: [] }).options.instructions).toBeUndefined();
  });

  it("is pure: same output twice, input untouched", () => {
    const transcript = toolRound("google");
    const before = structuredClone(transcript);
    const first = render("google", transcript);
    expect(render("google", transcript).messages).toEqual(first.messages);
    expect(transcript).toEqual(before);
  });
});

describe("renderRequest: tools as text", () => {
  it("without native tools: no tools, the convention in the system prompt, history as text", () => {
    const call = render("openai-compatible", toolRound("openai-compatible"), { nativeTools: false });
    expect(call.tools).toEqual({});
    expect(call.options.tools).toBeUndefined();
    expect(call.toolNames).toEqual(["builtin.current_time", "github.search_issues"]);
    expect(call.system).toMatch(/^You are helpful\.\n\n# Tools\n/);
    expect(call.system).toContain("<tool_use><server>SERVER</server><tool>TOOL</tool><arguments>");
    expect(call.system).toContain("- server: github, tool: search_issues");
    expect(call.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          {
            type: "text",
            text:
              "Let me check.\n" +
              "<tool_use><server>builtin</server><tool>current_time</tool><arguments>{}</arguments></tool_use>\n" +
              '<tool_use><server>github</server><tool>search_issues</tool><arguments>{"query":"bug"}</arguments></tool_use>',
          },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "text",
            text:
              "<tool_result><server>builtin</server><tool>current_time</tool><output>12:00</output></tool_result>\n" +
              '<tool_result><server>github</server><tool>search_issues</tool><output>{"count":2}</output></tool_result>',
          },
        ],
      },
    ]);
  });

  it("with native tools but an empty snapshot: no tool_use blocks, tool history as text", () => {
    const call = renderRequest({
      provider: "anthropic",
      modelId: "m",
      transcript: toolRound("anthropic"),
      snapshot: { revision: 8, tools: [] },
      isFollowUp: false,
    });
    expect(call.tools).toEqual({});
    expect(call.toolNames).toEqual([]);
    expect(JSON.stringify(call.messages)).not.toContain('"tool-call"');
    expect(JSON.stringify(call.messages)).toContain("<tool_result><server>builtin</server>");
  });
});
