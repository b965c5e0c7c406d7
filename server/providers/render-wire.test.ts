// What each provider really receives: renderRequest → the model call (model-call.ts) through the
// real AI SDK provider, whose fetch records the request body and answers with a recorded stream.
// Checks ids, ordering, tools on follow-ups, echoed signatures / encrypted reasoning, Gemini
// schemas, and provider switches.
import { streamText } from "ai";
import { describe, expect, it } from "vitest";

import type { ProviderId, ToolSnapshot, Transcript } from "../core/canonical.ts";
import { createLanguageModel } from "./model-factory.ts";
import { renderRequest } from "./render.ts";
import { capturingFetch, drainModelCall, replyFor } from "../../e2e/support/testbeds/provider-wire.ts";
import {
  ANTHROPIC_SIGNATURE,
  GOOGLE_SIGNATURE,
  GOOGLE_TEXT_SIGNATURE,
  OPENAI_ENCRYPTED,
  snapshot,
  toolRound,
  toolRoundThenUser,
} from "../../e2e/support/testbeds/transcripts.ts";

// The Gemini 3 replays below make the SDK inject its signature sentinel and warn about it on purpose.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const models: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-3-pro-preview",
  "openai-compatible": "llama3.2",
};

type Body = Record<string, unknown> & {
  messages?: unknown[];
  input?: unknown[];
  contents?: unknown[];
  tools?: unknown[];
};

async function wireBody(
  provider: ProviderId,
  transcript: Transcript,
  isFollowUp = true,
  nativeTools = true,
): Promise<Body> {
  const { fetch, requests } = capturingFetch(replyFor(provider));
  const baseURL = provider === "openai-compatible" ? "http://127.0.0.1:1/v1" : undefined;
  const model = createLanguageModel({ provider, modelId: models[provider], apiKey: "test-key", baseURL, fetch });
  const call = renderRequest({ provider, modelId: models[provider], transcript, snapshot, isFollowUp, nativeTools });
  await drainModelCall(model, call.options);
  expect(requests).toHaveLength(1);
  return requests[0]?.body as Body;
}

const allSignatures = [ANTHROPIC_SIGNATURE, OPENAI_ENCRYPTED, GOOGLE_SIGNATURE, GOOGLE_TEXT_SIGNATURE];

function expectNoForeignData(body: Body, own: string[] = []) {
  const json = JSON.stringify(body);
  for (const signature of allSignatures.filter((value) => !own.includes(value))) expect(json).not.toContain(signature);
}

describe("Anthropic Messages wire format", () => {
  it("echoes thinking with its signature, tool_use with provider ids, tool_result first in the next user message", async () => {
    const body = await wireBody("anthropic", toolRoundThenUser("anthropic"));
    expect(body.system).toEqual([{ type: "text", text: "You are helpful." }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What time is it, and any bugs?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should look up the time and issues.", signature: ANTHROPIC_SIGNATURE },
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "anthropic-native-1", name: "builtin_current_time", input: {} },
          { type: "tool_use", id: "anthropic-native-2", name: "github_search_issues", input: { query: "bug" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "anthropic-native-1", content: "12:00" },
          { type: "tool_result", tool_use_id: "anthropic-native-2", content: '{"count":2}' },
          { type: "text", text: "Thanks, and now?" },
        ],
      },
    ]);
    expect((body.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      "builtin_current_time",
      "github_search_issues",
    ]);
  });

  it.each(["openai", "google"] as const)(
    "from a %s history: canonical ids, no foreign reasoning or signatures",
    async (from) => {
      const body = await wireBody("anthropic", toolRound(from));
      expectNoForeignData(body);
      const json = JSON.stringify(body.messages);
      expect(json).not.toContain('"thinking"');
      expect(json).toContain('"id":"call_c1"');
      expect(json).toContain('"tool_use_id":"call_c2"');
      expect(json).not.toContain("-native-");
    },
  );
});

describe("OpenAI Responses wire format", () => {
  it("echoes the reasoning item with encrypted content and pairs function_call with function_call_output", async () => {
    const body = await wireBody("openai", toolRound("openai"));
    expect(body).toMatchObject({
      store: false,
      include: ["reasoning.encrypted_content"],
      parallel_tool_calls: false,
    });
    expect(body).not.toHaveProperty("instructions");
    expect(body.input).toEqual([
      { role: "developer", content: "You are helpful." },
      { role: "user", content: [{ type: "input_text", text: "What time is it, and any bugs?" }] },
      {
        type: "reasoning",
        id: "rs_1",
        encrypted_content: OPENAI_ENCRYPTED,
        summary: [{ type: "summary_text", text: "I should look up the time and issues." }],
      },
      { role: "assistant", content: "Let me check." },
      { type: "function_call", call_id: "openai-native-1", name: "builtin_current_time", arguments: "{}" },
      { type: "function_call", call_id: "openai-native-2", name: "github_search_issues", arguments: '{"query":"bug"}' },
      { type: "function_call_output", call_id: "openai-native-1", output: "12:00" },
      { type: "function_call_output", call_id: "openai-native-2", output: '{"count":2}' },
    ]);
    expect((body.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      "builtin_current_time",
      "github_search_issues",
    ]);
  });

  it("leaves parallel tool calls on for a first request, still declaring tools", async () => {
    const body = await wireBody("openai", toolRoundThenUser("openai"), false);
    expect(body.parallel_tool_calls).toBeUndefined();
    expect(body.tools).toHaveLength(2);
  });

  it.each(["anthropic", "google"] as const)(
    "from a %s history: no reasoning item, canonical call ids",
    async (from) => {
      const body = await wireBody("openai", toolRound(from));
      expectNoForeignData(body);
      const types = (body.input as { type?: string }[]).map((item) => item.type ?? "message");
      expect(types).toEqual([
        "message",
        "message",
        "message",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
      ]);
      expect(JSON.stringify(body.input)).toContain('"call_id":"call_c1"');
    },
  );
});

type GeminiPart = {
  text?: string;
  functionCall?: { name: string };
  functionResponse?: { name: string };
  thoughtSignature?: string;
};

describe("Gemini wire format", () => {
  it("sends functionCall parts then functionResponse parts in the same order, echoing thoughtSignature exactly", async () => {
    const body = await wireBody("google", toolRound("google"));
    const contents = body.contents as { role: string; parts: GeminiPart[] }[];
    expect(contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
    const [, model, reply] = contents;
    expect(model?.parts).toEqual([
      { text: "Let me check.", thoughtSignature: GOOGLE_TEXT_SIGNATURE },
      {
        functionCall: { id: "google-native-1", name: "builtin_current_time", args: {} },
        thoughtSignature: GOOGLE_SIGNATURE,
      },
      { functionCall: { id: "google-native-2", name: "github_search_issues", args: { query: "bug" } } },
    ]);
    expect(reply?.parts.map((part) => part.functionResponse?.name)).toEqual([
      "builtin_current_time",
      "github_search_issues",
    ]);
    expect(JSON.stringify(reply)).toContain('"id":"google-native-1"');
  });

  it("declares tools on follow-ups with schemas in the OpenAPI subset", async () => {
    const body = await wireBody("google", toolRound("google"));
    const [declarations] = body.tools as { functionDeclarations: { name: string; parametersJsonSchema: object }[] }[];
    const search = declarations?.functionDeclarations.find(
      (declaration) => declaration.name === "github_search_issues",
    );
    expect(search?.parametersJsonSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        state: { type: "string", enum: ["open", "closed"] },
        kind: { type: "string", enum: ["issue"] },
        limit: { type: "integer", nullable: true },
      },
      required: ["query"],
    });
    expect(JSON.stringify(body.tools)).not.toMatch(
      /\$ref|\$defs|\$schema|"const"|additionalProperties|\["integer","null"\]/,
    );
  });

  it.each(["anthropic", "openai"] as const)(
    "from a %s history: only the SDK's skip sentinel, never a foreign signature",
    async (from) => {
      const body = await wireBody("google", toolRound(from));
      expectNoForeignData(body);
      const parts = (body.contents as { parts: GeminiPart[] }[]).flatMap((content) => content.parts);
      expect(parts.some((part) => part.text === "I should look up the time and issues.")).toBe(false);
      const signatures = new Set(parts.map((part) => part.thoughtSignature).filter(Boolean));
      expect([...signatures]).toEqual(["skip_thought_signature_validator"]);
      expect(JSON.stringify(body.contents)).toContain('"id":"call_c1"');
    },
  );
});

describe("OpenAI-compatible chat completions wire format", () => {
  it("native tools: tool_calls with canonical ids and tool messages", async () => {
    const body = await wireBody("openai-compatible", toolRound("anthropic"));
    const messages = body.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(messages[2]?.tool_calls?.map((call) => call.id)).toEqual(["call_c1", "call_c2"]);
    expect(messages.slice(3).map((message) => message.tool_call_id)).toEqual(["call_c1", "call_c2"]);
    expect(body.tools).toHaveLength(2);
    expectNoForeignData(body);
  });

  it("without native tools: no tools field, the convention in the system message, history as text", async () => {
    const body = await wireBody("openai-compatible", toolRound("openai-compatible"), true, false);
    expect(body.tools).toBeUndefined();
    const messages = body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[0]?.content).toContain("<tool_use><server>SERVER</server>");
    expect(messages[2]?.content).toBe(
      "Let me check.\n<tool_use><server>builtin</server><tool>current_time</tool><arguments>{}</arguments></tool_use>\n" +
        '<tool_use><server>github</server><tool>search_issues</tool><arguments>{"query":"bug"}</arguments></tool_use>',
    );
    expect(messages[3]?.content).toContain(
      "<tool_result><server>builtin</server><tool>current_time</tool><output>12:00</output>",
    );
  });
});

describe("the fields used one by one (system, messages, tools, providerOptions)", () => {
  it.each([
    ["openai-compatible", false, { revision: 1, tools: snapshot.tools }],
    ["anthropic", true, { revision: 2, tools: [] }],
  ] as [ProviderId, boolean, ToolSnapshot][])(
    "%s with no declared tools sends no tools field",
    async (provider, nativeTools, tools) => {
      const { fetch, requests } = capturingFetch(replyFor(provider));
      const baseURL = provider === "openai-compatible" ? "http://127.0.0.1:1/v1" : undefined;
      const model = createLanguageModel({ provider, modelId: models[provider], apiKey: "k", baseURL, fetch });
      const transcript = toolRound(provider);
      const call = renderRequest({
        provider,
        modelId: models[provider],
        transcript,
        snapshot: tools,
        isFollowUp: true,
        nativeTools,
      });
      const { system, messages, providerOptions } = call;
      await streamText({ model, system, messages, tools: call.tools, providerOptions, maxRetries: 0 }).consumeStream();
      expect(requests[0]?.body).not.toHaveProperty("tools");
      expect(JSON.stringify(requests[0]?.body)).toContain("You are helpful.");
    },
  );
});

describe("a failed tool result on the wire", () => {
  const error = { code: "unavailable", message: "The Everything connector's server went away during the call." };
  /** toolRound with the second result failed, stored in the canonical shape. */
  function failedRound(provider: ProviderId): Transcript {
    const round = toolRound(provider);
    const [user, assistant, results] = round.messages;
    if (results?.role !== "tool") throw new Error("toolRound ends with its results");
    const parts = results.parts.map((part, index) =>
      index === 1 ? { ...part, output: { error }, isError: true } : part,
    );
    return { ...round, messages: [user!, assistant!, { ...results, parts }] };
  }
  const once = JSON.stringify({ error });

  it("reaches Anthropic as a tool_result with is_error and {error:{code,message}} once", async () => {
    const body = await wireBody("anthropic", failedRound("anthropic"));
    const reply = body.messages?.at(-1) as { content: Record<string, unknown>[] };
    expect(reply.content[1]).toEqual({
      type: "tool_result",
      tool_use_id: "anthropic-native-2",
      content: once,
      is_error: true,
    });
  });

  it("reaches OpenAI as a function_call_output holding {error:{code,message}} once", async () => {
    const body = await wireBody("openai", failedRound("openai"));
    expect(body.input?.at(-1)).toEqual({ type: "function_call_output", call_id: "openai-native-2", output: once });
  });

  it("reaches an OpenAI-compatible server as a tool message holding {error:{code,message}} once", async () => {
    const body = await wireBody("openai-compatible", failedRound("openai-compatible"));
    expect(body.messages?.at(-1)).toEqual({ role: "tool", tool_call_id: "openai-compatible-native-2", content: once });
  });

  it("reaches Gemini as a functionResponse whose response is {name, error:{code,message}}", async () => {
    const body = await wireBody("google", failedRound("google"));
    const reply = (body.contents as { parts: GeminiPart[] }[]).at(-1);
    expect(reply?.parts[1]?.functionResponse).toEqual({
      id: "google-native-2",
      name: "github_search_issues",
      response: { name: "github_search_issues", error },
    });
  });
});

describe("Gemini after a provider switch", () => {
  it.each([
    ["anthropic", "gemini-3-pro-preview"],
    ["openai", "gemini-3-pro-preview"],
    ["anthropic", "gemini-2.5-flash"],
    ["openai-compatible", "gemini-2.5-flash"],
  ] as const)("every functionCall made by %s carries the placeholder signature (%s)", async (from, modelId) => {
    const { fetch, requests } = capturingFetch(replyFor("google"));
    const model = createLanguageModel({ provider: "google", modelId, apiKey: "test-key", fetch });
    const call = renderRequest({
      provider: "google",
      modelId,
      transcript: toolRound(from),
      snapshot,
      isFollowUp: true,
    });
    await drainModelCall(model, call.options);
    const contents = (requests[0]?.body as Body).contents as { role: string; parts: GeminiPart[] }[];
    const calls = contents.flatMap((content) => content.parts).filter((part) => part.functionCall);
    expect(calls).toHaveLength(2);
    for (const part of calls) expect(part.thoughtSignature).toBe("skip_thought_signature_validator");
  });

  it("keeps Gemini's own signature, and its own unsigned parallel call as it came", async () => {
    const body = await wireBody("google", toolRound("google"));
    const calls = (body.contents as { parts: GeminiPart[] }[])
      .flatMap((content) => content.parts)
      .filter((part) => part.functionCall);
    expect(calls.map((part) => part.thoughtSignature)).toEqual([GOOGLE_SIGNATURE, undefined]);
  });
});
