// Every recorded Gemini stream, replayed as Code Assist sends it — each SSE data line wrapped in
// `{ response: …, traceId }` and delivered in small chunks that split lines — through the real Code
// Assist request shaping and unwrap (code-assist-request.ts, behind the subscription fetch), must
// decode to exactly the canonical events the same stream gives unwrapped from the Gemini API.
import { jsonSchema, tool, type Tool } from "ai";
import { describe, expect, it } from "vitest";

import type { StreamEvent } from "../../core/canonical.ts";
import { createLanguageModel } from "../model-factory.ts";
import { streamModelCall } from "../model-call.ts";
import { decodeModelStream } from "../stream-events.ts";
import { createAuthorizedFetch } from "../subscriptions/authorized-fetch.ts";
import { capturingFetch, listFixtures, readFixture, toSseBody } from "../../../e2e/support/testbeds/provider-wire.ts";
import { shapeCodeAssistRequest } from "./code-assist-request.ts";

const MODEL = "gemini-3-pro-preview";
const config = { CODE_ASSIST_BASE_URL: "https://ca.example.test", GOOGLE_CLOUD_PROJECT: undefined };
const toolNames = ["json", "updateIssueList", "calculator", "get_weather", "weather", "getWeather"];
const tools: Record<string, Tool> = Object.fromEntries(
  toolNames.map((name) => [name, tool({ description: name, inputSchema: jsonSchema({ type: "object" }) })]),
);

/** An SSE response whose bytes arrive `size` at a time, as a network would split them. */
function chunkedResponse(body: string, size: number): Response {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}

/** Gemini sends no call ids: the SDK makes random ones, so calls are numbered for the comparison. */
async function decode(model: ReturnType<typeof createLanguageModel>): Promise<StreamEvent[]> {
  const parts = streamModelCall(
    model,
    { messages: [{ role: "user", content: "hi" }], tools, providerOptions: {} },
    new AbortController().signal,
  );
  const events: StreamEvent[] = [];
  for await (const event of decodeModelStream(parts, "google")) {
    events.push(event.type === "tool-call" ? { ...event, providerCallId: `call-${events.length}` } : event);
  }
  return events;
}

function replayFromGeminiApi(lines: string[]) {
  const { fetch } = capturingFetch(toSseBody("google", lines));
  return decode(createLanguageModel({ provider: "google", modelId: MODEL, apiKey: "key", fetch }));
}

async function replayFromCodeAssist(lines: string[]) {
  const wrapped = lines.map((line) => JSON.stringify({ response: JSON.parse(line) as unknown, traceId: "trace-1" }));
  const sent: { url: string; body: Record<string, unknown> }[] = [];
  const vendorFetch: typeof globalThis.fetch = (input, init) => {
    sent.push({
      url: input instanceof Request ? input.url : input.toString(),
      body: JSON.parse(init?.body as string) as Record<string, unknown>,
    });
    return Promise.resolve(chunkedResponse(toSseBody("google", wrapped), 13));
  };
  const tokens = {
    current: () => Promise.resolve({ accessToken: "at-1" }),
    afterRejection: () => Promise.reject(new Error("no 401 expected")),
  };
  const fetch = createAuthorizedFetch(
    tokens,
    (url, init, current) => shapeCodeAssistRequest(url, init, current, { config, project: "proj-1" }),
    vendorFetch,
  );
  const baseURL = `${config.CODE_ASSIST_BASE_URL}/v1beta`;
  const events = await decode(
    createLanguageModel({ provider: "google", modelId: MODEL, apiKey: "at-1", baseURL, fetch }),
  );
  return { events, sent };
}

describe("Code Assist replays of the recorded Gemini streams", () => {
  it("covers every recorded Gemini stream", () => {
    expect(listFixtures("google").length).toBeGreaterThanOrEqual(5);
  });

  for (const name of listFixtures("google")) {
    it(`google/${name}: the same canonical events through the {response} envelope`, async () => {
      const lines = readFixture("google", name);
      const direct = await replayFromGeminiApi(lines);
      const { events, sent } = await replayFromCodeAssist(lines);
      expect(events).toEqual(direct);
      expect(direct.some((event) => event.type === "finish")).toBe(true);
      expect(direct.some((event) => event.type === "error")).toBe(false);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.url).toBe("https://ca.example.test/v1internal:streamGenerateContent?alt=sse");
      expect(sent[0]!.body).toMatchObject({ model: MODEL, project: "proj-1" });
    });
  }
});
