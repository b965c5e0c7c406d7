// The fake provider against the real AI SDK providers: for each wire format, streamText with the real
// provider factory pointed at the fake must stream text, surface tool calls, close the tool loop in
// echo mode, round-trip reasoning signatures, surface HTTP and mid-stream errors, and let the server
// see a client abort; plus the echo commands and Gemini's in-band error variant.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type TextStreamPart,
  tool,
  type ToolSet,
} from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { type FakeProvider, type ProviderId, startFakeProvider } from "./server.ts";

type Part = TextStreamPart<ToolSet>;
type ProviderOptions = Record<string, Record<string, unknown>>;

const TOOL = "builtin__current_time";
const SIG = "c2lnbmF0dXJlLW9mLXRoZS10aG91Z2h0";
const THOUGHT = "The user wants the time, so I call the tool.";
const tools = {
  [TOOL]: tool({
    description: "Current time in a timezone",
    inputSchema: jsonSchema<{ timezone: string }>({
      type: "object",
      properties: { timezone: { type: "string" } },
      required: ["timezone"],
    }),
  }),
};

interface Case {
  model(fake: FakeProvider): LanguageModel;
  path: string;
  secretHeader: string;
  reasoning: {
    options?: ProviderOptions;
    /** What the stream exposes of the scripted reasoning (signature, or the text for compat). */
    streamed(parts: Part[]): unknown;
    expected: string;
    /** The follow-up request body must replay it. */
    replayed: object;
  };
  midStreamError: RegExp;
  /** The provider's words for a tool result whose call is not in the request. */
  orphanResult: RegExp;
}

const arrayWith = (...items: object[]): unknown =>
  expect.arrayContaining(items.map((i): unknown => expect.objectContaining(i)));

const CASES: Record<ProviderId, Case> = {
  anthropic: {
    model: (fake) => createAnthropic({ baseURL: fake.baseUrls.anthropic, apiKey: "test-key" })("claude-sonnet-4-5"),
    path: "/anthropic/v1/messages",
    secretHeader: "x-api-key",
    reasoning: {
      options: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      streamed: (parts) => metadata(parts, "anthropic", "signature"),
      expected: SIG,
      replayed: {
        messages: arrayWith({ role: "assistant", content: arrayWith({ type: "thinking", signature: SIG }) }),
      },
    },
    midStreamError: /scripted failure/,
    orphanResult: /unexpected `tool_use_id` found in `tool_result` blocks: call_orphan/,
  },
  openai: {
    model: (fake) => createOpenAI({ baseURL: fake.baseUrls.openai, apiKey: "test-key" }).responses("gpt-5"),
    path: "/openai/v1/responses",
    secretHeader: "authorization",
    reasoning: {
      options: { openai: { store: false, include: ["reasoning.encrypted_content"], reasoningSummary: "auto" } },
      streamed: (parts) => metadata(parts, "openai", "reasoningEncryptedContent"),
      expected: SIG,
      replayed: { input: arrayWith({ type: "reasoning", encrypted_content: SIG }) },
    },
    midStreamError: /scripted failure/,
    orphanResult: /No tool call found for function call output with call_id call_orphan/,
  },
  google: {
    model: (fake) =>
      createGoogleGenerativeAI({ baseURL: fake.baseUrls.google, apiKey: "test-key" })("gemini-2.5-flash"),
    path: "/google/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    secretHeader: "x-goog-api-key",
    reasoning: {
      options: { google: { thinkingConfig: { includeThoughts: true } } },
      streamed: (parts) => metadata(parts, "google", "thoughtSignature"),
      expected: SIG,
      replayed: {
        contents: arrayWith({
          role: "model",
          parts: arrayWith({ thoughtSignature: SIG, functionCall: expect.objectContaining({ name: TOOL }) as unknown }),
        }),
      },
    },
    // The default Gemini mid-stream error is an abrupt close: the SDK's fullStream throws instead of
    // yielding an error part (see the in-band variant below).
    midStreamError: /Failed to process successful response/,
    orphanResult: /function response turn comes immediately after a function call turn/,
  },
  compat: {
    model: (fake) =>
      createOpenAICompatible({ name: "compat", baseURL: fake.baseUrls.compat, apiKey: "test-key", includeUsage: true })(
        "fake-model",
      ),
    path: "/compat/v1/chat/completions",
    secretHeader: "authorization",
    reasoning: {
      streamed: (parts) => textOf(parts, "reasoning-delta"),
      expected: THOUGHT,
      replayed: { messages: arrayWith({ role: "assistant", reasoning_content: THOUGHT }) },
    },
    midStreamError: /scripted failure/,
    orphanResult: /role 'tool' must be a response to a preceeding message with 'tool_calls'/,
  },
};

function metadata(parts: Part[], provider: string, key: string): unknown {
  for (const part of parts) {
    const value = "providerMetadata" in part ? part.providerMetadata?.[provider]?.[key] : undefined;
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

function textOf(parts: Part[], type: "text-delta" | "reasoning-delta"): string {
  return parts.map((part) => (part.type === type ? part.text : "")).join("");
}

async function run(
  model: LanguageModel,
  messages: ModelMessage[],
  extra: { providerOptions?: ProviderOptions; abortSignal?: AbortSignal; onFirstText?: () => void } = {},
) {
  const result = streamText({
    model,
    messages,
    tools,
    maxRetries: 0,
    providerOptions: extra.providerOptions as never,
    abortSignal: extra.abortSignal,
    onError: () => undefined,
  });
  const parts: Part[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.fullStream) {
      if (part.type === "text-delta" && !parts.some((p) => p.type === "text-delta")) extra.onFirstText?.();
      parts.push(part);
    }
  } catch (error) {
    thrown = error;
  }
  return { parts, result, thrown };
}

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const errorsOf = (parts: Part[]) => parts.flatMap((part) => (part.type === "error" ? [part.error] : []));
const finishOf = (parts: Part[]) => parts.flatMap((part) => (part.type === "finish" ? [part.finishReason] : []));

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.clear();
  fake.setDefaultReply("echo");
});

describe.each(Object.entries(CASES) as [ProviderId, Case][])("%s wire format", (provider, c) => {
  it("streams scripted text and records the request", async () => {
    fake.script(provider, { steps: [{ type: "text", text: "Hello there, world." }] });
    const { parts } = await run(c.model(fake), [user("hi")]);

    expect(textOf(parts, "text-delta")).toBe("Hello there, world.");
    expect(parts.filter((p) => p.type === "text-delta").length).toBe(3);
    expect(finishOf(parts)).toEqual(["stop"]);
    const [recorded] = fake.requests(provider);
    expect(recorded).toMatchObject({ provider, method: "POST", path: c.path, aborted: false, status: 200 });
    expect(recorded?.headers[c.secretHeader]).toBe("present");
    expect(JSON.stringify(recorded?.body)).toContain('"hi"');
  });

  it("streams a tool call with its name and args, and sends the declared tools", async () => {
    fake.script(provider, { steps: [{ type: "tool-call", name: TOOL, args: { timezone: "Europe/Paris" } }] });
    const { parts } = await run(c.model(fake), [user("what time is it?")]);

    const calls = parts.filter((p) => p.type === "tool-call");
    expect(calls).toMatchObject([{ toolName: TOOL, input: { timezone: "Europe/Paris" } }]);
    expect(finishOf(parts)).toEqual(["tool-calls"]);
    const body = JSON.stringify(fake.requests(provider)[0]?.body);
    expect(body).toContain(TOOL);
    expect(body).toContain("Current time in a timezone");
  });

  it("closes the tool loop in echo mode", async () => {
    const ask = user(`use tool ${TOOL} {"timezone":"UTC"}`);
    const first = await run(c.model(fake), [ask]);
    const [call] = first.parts.filter((p) => p.type === "tool-call");
    expect(call).toMatchObject({ toolName: TOOL, input: { timezone: "UTC" } });

    const toolResult: ModelMessage = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call!.toolCallId,
          toolName: TOOL,
          output: { type: "text", value: "12:00 UTC" },
        },
      ],
    };
    const second = await run(c.model(fake), [ask, ...(await first.result.responseMessages), toolResult]);
    expect(textOf(second.parts, "text-delta")).toBe(`Tool ${TOOL} returned: 12:00 UTC`);
    expect(fake.requests(provider)).toHaveLength(2);
  });

  it("round-trips reasoning", async () => {
    fake.script(provider, {
      steps: [
        { type: "reasoning", text: THOUGHT, signature: SIG },
        { type: "tool-call", name: TOOL, args: { timezone: "UTC" }, signature: SIG },
      ],
    });
    const options = { providerOptions: c.reasoning.options };
    const first = await run(c.model(fake), [user("time?")], options);
    expect(textOf(first.parts, "reasoning-delta")).toBe(THOUGHT);
    expect(c.reasoning.streamed(first.parts)).toBe(c.reasoning.expected);

    const [call] = first.parts.filter((p) => p.type === "tool-call");
    const toolResult: ModelMessage = {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: call!.toolCallId, toolName: TOOL, output: { type: "text", value: "noon" } },
      ],
    };
    await run(c.model(fake), [user("time?"), ...(await first.result.responseMessages), toolResult], options);
    expect(fake.requests(provider)[1]?.body).toMatchObject(c.reasoning.replayed);
  });

  it("surfaces an HTTP error in the provider's error format", async () => {
    fake.script(provider, { error: { status: 400, message: "Scripted bad request" } });
    const { parts } = await run(c.model(fake), [user("hi")]);

    const [error] = errorsOf(parts);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400, message: "Scripted bad request" });
    expect(fake.requests(provider)[0]?.status).toBe(400);
  });

  it("refuses, like the real API, a tool result without its call: a 400 the SDK parses, recorded", async () => {
    const orphan: ModelMessage = {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_orphan", toolName: TOOL, output: { type: "text", value: "noon" } },
      ],
    };
    const answer: ModelMessage = { role: "assistant", content: "Let me look." };
    const { parts } = await run(c.model(fake), [user("time?"), answer, orphan]);

    const [error] = errorsOf(parts);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400 });
    expect((error as Error).message).toMatch(c.orphanResult);
    expect(fake.requests(provider)).toMatchObject([{ status: 400 }]);
    expect(fake.requests(provider)[0]?.error).toMatch(c.orphanResult);
  });

  it("surfaces a mid-stream error after the scripted number of chunks", async () => {
    fake.script(provider, {
      steps: [{ type: "text", text: "alpha beta gamma delta" }],
      error: { midStreamAfterChunks: 2, message: "scripted failure" },
    });
    const { parts, thrown } = await run(c.model(fake), [user("hi")]);

    expect(textOf(parts, "text-delta")).toBe("alpha beta");
    const [error] = provider === "google" ? [thrown] : errorsOf(parts);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(c.midStreamError);
    if (provider === "google") expect(String((error as Error).cause)).toMatch(/terminated/);
  });

  it("records the abort when the client cancels a slow stream", async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    fake.script(provider, { steps: [{ type: "text", text: words }], delayMs: 25 });
    const controller = new AbortController();
    const started = Date.now();
    const { parts } = await run(c.model(fake), [user("hi")], {
      abortSignal: controller.signal,
      onFirstText: () => controller.abort(),
    });

    expect(parts.some((p) => p.type === "abort")).toBe(true);
    expect(textOf(parts, "text-delta").length).toBeLessThan(words.length);
    await vi.waitFor(() => expect(fake.requests(provider)[0]?.aborted).toBe(true));
    expect(Date.now() - started).toBeLessThan(40 * 25);
  });
});

describe("replies scripted for a message", () => {
  it("go only to a request whose user text has the message, whatever the queue order", async () => {
    fake.script("openai", { forMessage: "for bob", steps: [{ type: "text", text: "Bob's reply." }] });
    fake.script("openai", { forMessage: "for alice", steps: [{ type: "text", text: "Alice's reply." }] });
    const model = CASES.openai.model(fake);

    expect(textOf((await run(model, [user("a stranger asks")])).parts, "text-delta")).toBe("Echo: a stranger asks");
    expect(textOf((await run(model, [user("this is for alice")])).parts, "text-delta")).toBe("Alice's reply.");
    expect(textOf((await run(model, [user("and this for bob")])).parts, "text-delta")).toBe("Bob's reply.");
    expect(textOf((await run(model, [user("for alice again")])).parts, "text-delta")).toBe("Echo: for alice again");
  });
});

describe("echo commands and the in-band Gemini error", () => {
  it("lists the declared tools and echoes plain text", async () => {
    const listed = await run(CASES.anthropic.model(fake), [user("list tools")]);
    expect(textOf(listed.parts, "text-delta")).toBe(`Tools: ${TOOL}`);
    const echoed = await run(CASES.google.model(fake), [user("ping   pong")]);
    expect(textOf(echoed.parts, "text-delta")).toBe("Echo: ping   pong");
  });

  it("sends Gemini's in-band error chunk when the mid-stream error is not abrupt", async () => {
    fake.script("google", {
      steps: [{ type: "text", text: "alpha beta gamma" }],
      error: { midStreamAfterChunks: 1, message: "scripted failure", abrupt: false },
    });
    const { parts, thrown } = await run(CASES.google.model(fake), [user("hi")]);
    expect(thrown).toBeUndefined();
    expect(textOf(parts, "text-delta")).toBe("alpha");
    expect(errorsOf(parts)).toMatchObject([{ message: "scripted failure" }]);
  });
});
