// Replays every recorded provider stream through the real AI SDK provider (a fake fetch answers with
// the fixture as SSE) and checks the canonical events decoded from the stream the turn runner reads
// (model-call.ts).
import { jsonSchema, tool, type Tool } from "ai";
import { describe, expect, it } from "vitest";

import type { StreamEvent } from "../core/canonical.ts";
import { createLanguageModel } from "./model-factory.ts";
import { streamModelCall } from "./model-call.ts";
import { decodeModelStream, toStreamEvents } from "./stream-events.ts";
import {
  capturingFetch,
  listFixtures,
  readFixture,
  splitOpenAIResponses,
  toSseBody,
  type FixtureProvider,
} from "../../e2e/support/testbeds/provider-wire.ts";

const modelIds: Record<FixtureProvider, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.1",
  google: "gemini-3-pro-preview",
};
const toolNames = ["json", "updateIssueList", "calculator", "get_weather", "weather", "getWeather"];
const tools: Record<string, Tool> = Object.fromEntries(
  toolNames.map((name) => [name, tool({ description: name, inputSchema: jsonSchema({ type: "object" }) })]),
);

async function replay(provider: FixtureProvider, lines: string[], stateless = false): Promise<StreamEvent[]> {
  const { fetch } = capturingFetch(toSseBody(provider, lines));
  const model = createLanguageModel({ provider, modelId: modelIds[provider], apiKey: "test-key", fetch });
  const parts = streamModelCall(
    model,
    { messages: [{ role: "user", content: "hi" }], tools, providerOptions: {} },
    new AbortController().signal,
  );
  const events: StreamEvent[] = [];
  if (stateless) for await (const part of parts) events.push(...toStreamEvents(part, provider));
  else for await (const event of decodeModelStream(parts, provider)) events.push(event);
  return events;
}

const replayFixture = (provider: FixtureProvider, name: string) => replay(provider, readFixture(provider, name));

const ofType = <T extends StreamEvent["type"]>(events: StreamEvent[], type: T) =>
  events.filter((event): event is Extract<StreamEvent, { type: T }> => event.type === type);
const textOf = (events: StreamEvent[]) =>
  ofType(events, "text-delta")
    .map((event) => event.text)
    .join("");
const reasoningOf = (events: StreamEvent[]) =>
  ofType(events, "reasoning-delta")
    .map((event) => event.text)
    .join("");

/** A field of the raw fixture, to compare opaque values (signatures) byte for byte. */
function rawValues(lines: string[], pick: (chunk: Record<string, unknown>) => unknown): unknown[] {
  return lines.map((line) => pick(JSON.parse(line) as Record<string, unknown>)).filter((value) => value !== undefined);
}

function thoughtSignatures(lines: string[]): string[] {
  return rawValues(lines, (chunk) => {
    const candidates = chunk.candidates as { content?: { parts?: { thoughtSignature?: string }[] } }[] | undefined;
    return candidates?.[0]?.content?.parts?.find((part) => part.thoughtSignature)?.thoughtSignature;
  }) as string[];
}

const anthropicCases: Record<string, (events: StreamEvent[], lines: string[]) => void> = {
  "anthropic-text.chunks.txt": (events) => {
    expect(textOf(events)).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(ofType(events, "text-end")).toEqual([{ type: "text-end" }]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 12, outputTokens: 30 },
    });
  },
  "anthropic-json-tool.1.chunks.txt": (events) => {
    expect(ofType(events, "tool-call")).toEqual([
      {
        type: "tool-call",
        providerCallId: "toolu_01KFbKqPYSuAKujiL6mTfzYA",
        exposedName: "json",
        args: { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] },
      },
    ]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 849, outputTokens: 47 },
    });
  },
  "anthropic-tool-no-args.chunks.txt": (events) => {
    expect(textOf(events)).toBe("I'll update the issue list for you.");
    expect(ofType(events, "tool-call")).toEqual([
      { type: "tool-call", providerCallId: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", exposedName: "updateIssueList", args: {} },
    ]);
    expect(events.map((event) => event.type)).toEqual(["text-delta", "text-delta", "text-end", "tool-call", "finish"]);
  },
  "anthropic-clear-thinking.1.chunks.txt": (events, lines) => {
    const [signature] = rawValues(lines, (chunk) => (chunk.delta as { signature?: string } | undefined)?.signature);
    expect(reasoningOf(events)).toBe("The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185");
    expect(ofType(events, "reasoning-end")).toEqual([
      { type: "reasoning-end", providerData: { provider: "anthropic", data: { signature } } },
    ]);
    expect(String(signature)).toHaveLength(332);
    expect(textOf(events)).toBe("925 ÷ 5 = 185");
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 69, outputTokens: 53 },
    });
  },
  "anthropic-message-delta-input-tokens.chunks.txt": (events) => {
    expect(textOf(events)).toBe("pong");
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 61, outputTokens: 2 },
    });
  },
};

const googleCases: Record<string, (events: StreamEvent[], lines: string[]) => void> = {
  "google-text.chunks.txt": (events, lines) => {
    expect(textOf(events)).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(ofType(events, "text-end")).toEqual([
      {
        type: "text-end",
        providerData: { provider: "google", data: { thoughtSignature: thoughtSignatures(lines)[0] } },
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "stop", usage: { inputTokens: 9 } });
  },
  "google-reasoning.chunks.txt": (events, lines) => {
    expect(textOf(events)).toBe('There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.');
    const [signature] = thoughtSignatures(lines);
    expect(signature?.length).toBeGreaterThan(100);
    expect(ofType(events, "text-end")).toEqual([
      { type: "text-end", providerData: { provider: "google", data: { thoughtSignature: signature } } },
    ]);
  },
  "google-tool-call.chunks.txt": (events, lines) => {
    const calls = ofType(events, "tool-call");
    expect(calls).toMatchObject([{ exposedName: "weather", args: { location: "San Francisco" } }]);
    expect(calls[0]?.providerData).toEqual({
      provider: "google",
      data: { thoughtSignature: thoughtSignatures(lines)[0] },
    });
    expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls", usage: { inputTokens: 29 } });
  },
  "google-tool-call-gemini3.chunks.txt": (events, lines) => {
    const [call] = ofType(events, "tool-call");
    expect(call).toMatchObject({ exposedName: "weather", args: { location: "San Francisco" } });
    expect(call?.providerCallId).toMatch(/^[a-zA-Z0-9_-]+$/);
    const [signature] = thoughtSignatures(lines);
    expect(call?.providerData).toEqual({ provider: "google", data: { thoughtSignature: signature } });
    expect(signature?.length).toBeGreaterThan(1000);
  },
  "google-stream-tool-call-arguments.chunks.txt": (events, lines) => {
    const calls = ofType(events, "tool-call");
    expect(calls.map((call) => [call.exposedName, call.args])).toEqual([
      ["getWeather", { location: "Boston" }],
      ["getWeather", { location: "San Francisco" }],
    ]);
    expect(calls[0]?.providerData).toEqual({
      provider: "google",
      data: { thoughtSignature: thoughtSignatures(lines)[0] },
    });
    expect(calls[1]?.providerData).toBeUndefined();
  },
};

describe("toStreamEvents over every recorded fixture", () => {
  it("has an expectation for every fixture file", () => {
    expect(listFixtures("anthropic")).toEqual(Object.keys(anthropicCases).sort());
    expect(listFixtures("google")).toEqual(Object.keys(googleCases).sort());
    expect(listFixtures("openai")).toEqual([
      "openai-client-tool-search.2.chunks.txt",
      "openai-error.1.chunks.txt",
      "openai-reasoning-encrypted-content.1.chunks.txt",
    ]);
  });

  for (const [name, check] of Object.entries(anthropicCases)) {
    it(`anthropic/${name}`, async () => check(await replayFixture("anthropic", name), readFixture("anthropic", name)));
  }
  for (const [name, check] of Object.entries(googleCases)) {
    it(`google/${name}`, async () => check(await replayFixture("google", name), readFixture("google", name)));
  }

  it("openai/openai-client-tool-search.2: one function call with its call_id and parsed arguments", async () => {
    const events = await replayFixture("openai", "openai-client-tool-search.2.chunks.txt");
    expect(ofType(events, "tool-call")).toMatchObject([
      {
        providerCallId: "call_Q7pq6EfVGRnauPLWSSYBGJ1l",
        exposedName: "get_weather",
        args: { location: "San Francisco, CA", unit: "fahrenheit" },
      },
    ]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 467, outputTokens: 26 },
    });
  });

  it("openai/openai-reasoning-encrypted-content.1: four responses, reasoning with its final encrypted content", async () => {
    const responses = splitOpenAIResponses(readFixture("openai", "openai-reasoning-encrypted-content.1.chunks.txt"));
    expect(responses).toHaveLength(4);
    const decoded = await Promise.all(responses.map((lines) => replay("openai", lines)));
    const [first, ...rest] = decoded;
    const done = rawValues(responses[0] ?? [], (chunk) =>
      chunk.type === "response.output_item.done" ? chunk.item : undefined,
    ) as { type: string; id: string; encrypted_content?: string }[];
    const reasoningItem = done.find((item) => item.type === "reasoning");
    expect(reasoningOf(first ?? [])).toMatch(
      /^\*\*Calculating step-by-step using calculator\*\*\n\nI'll compute 12 plus 7/,
    );
    expect(ofType(first ?? [], "reasoning-end")).toEqual([
      {
        type: "reasoning-end",
        providerData: {
          provider: "openai",
          data: { itemId: reasoningItem?.id, reasoningEncryptedContent: reasoningItem?.encrypted_content },
        },
      },
    ]);
    expect(reasoningItem?.encrypted_content).toMatch(/^gAAAAABpPDIVOKrs/);
    expect(
      decoded.map((events) => ofType(events, "tool-call").map((call) => [call.providerCallId, call.args])),
    ).toEqual([
      [["call_AB6AaRZ1FYZB2RwS6A5vbdqn", { a: 12, b: 7, op: "add" }]],
      [["call_Q6pW65MUgW9vF59BmItYGos3", { a: 19, b: 3, op: "multiply" }]],
      [["call_Zl5vIMnD7dVAjgU6FkhmiCZh", { a: 57, b: 10, op: "multiply" }]],
      [],
    ]);
    const last = rest.at(-1) ?? [];
    expect(textOf(last)).toBe("The final result is **570**.");
    const [textEnd] = ofType(last, "text-end");
    expect(textEnd?.providerData?.provider).toBe("openai");
    expect(textEnd?.providerData?.data.itemId).toMatch(/^msg_/);
    expect(last.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  it("openai/openai-error.1: an error event with a safe message, not the provider's text", async () => {
    const events = await replayFixture("openai", "openai-error.1.chunks.txt");
    const errors = ofType(events, "error");
    expect(errors).toEqual([
      { type: "error", message: "The provider account has run out of quota or credit. (insufficient_quota)" },
    ]);
    expect(JSON.stringify(events)).not.toContain("platform.openai.com");
  });
});

describe("stateless decoding (no StreamDecodeState)", () => {
  it("still delivers the Anthropic signature, on an extra reasoning-end right after the signature delta", async () => {
    const lines = readFixture("anthropic", "anthropic-clear-thinking.1.chunks.txt");
    const events = await replay("anthropic", lines, true);
    const ends = ofType(events, "reasoning-end");
    expect(ends).toHaveLength(2);
    expect(ends[0]?.providerData?.data.signature).toMatch(/^EvQBCkYICxgCKkAxhD4NUKFzudtZ6N/);
    expect(ends[1]).toEqual({ type: "reasoning-end" });
    expect(reasoningOf(events)).toBe("The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185");
  });

  it("delivers a Gemini text thoughtSignature", async () => {
    const lines = readFixture("google", "google-text.chunks.txt");
    const events = await replay("google", lines, true);
    const signed = ofType(events, "text-end").filter((event) => event.providerData);
    expect(signed).toEqual([
      {
        type: "text-end",
        providerData: { provider: "google", data: { thoughtSignature: thoughtSignatures(lines)[0] } },
      },
    ]);
  });
});

describe("toStreamEvents edge cases", () => {
  it("turns unparseable tool input into an error instead of a call with made-up arguments", () => {
    const part = {
      type: "tool-call",
      toolCallId: "c1",
      toolName: "t",
      input: "{oops",
      dynamic: true,
      invalid: true,
    } as const;
    expect(toStreamEvents(part, "openai")).toEqual([
      { type: "error", message: 'The model called "t" with arguments that are not a JSON object.' },
    ]);
  });

  it("maps empty-string tool input to {}", () => {
    const part = { type: "tool-call", toolCallId: "c1", toolName: "t", input: "", dynamic: true } as const;
    expect(toStreamEvents(part, "anthropic")).toEqual([
      { type: "tool-call", providerCallId: "c1", exposedName: "t", args: {} },
    ]);
  });

  it("ignores metadata of other providers", () => {
    const part = { type: "text-end", id: "1", providerMetadata: { google: { thoughtSignature: "x" } } } as const;
    expect(toStreamEvents(part, "anthropic")).toEqual([{ type: "text-end" }]);
  });

  it("tags provider data with the request's origin when it is given", () => {
    const origin = { account: "acct-1", endpoint: "chatgpt-codex" };
    const end = { type: "reasoning-end", id: "r", providerMetadata: { openai: { itemId: "rs_1" } } } as const;
    expect(toStreamEvents(end, "openai", undefined, origin)).toEqual([
      { type: "reasoning-end", providerData: { provider: "openai", data: { itemId: "rs_1" }, origin } },
    ]);
    const call = {
      type: "tool-call",
      toolCallId: "c1",
      toolName: "t",
      input: "{}",
      providerMetadata: { openai: { itemId: "fc_1" } },
    } as const;
    expect(toStreamEvents(call, "openai", undefined, origin)).toEqual([
      {
        type: "tool-call",
        providerCallId: "c1",
        exposedName: "t",
        args: {},
        providerData: { provider: "openai", data: { itemId: "fc_1" }, origin },
      },
    ]);
  });
});
