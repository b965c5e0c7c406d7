// The Gemini SDK's request must reach Code Assist wrapped in its envelope with bearer auth, and the
// `{response: …}` envelope must come off every SSE line again, however the stream is chunked.
import { describe, expect, it } from "vitest";

import { shapeCodeAssistRequest, unwrapCodeAssistStream } from "./code-assist-request.ts";

const config = { CODE_ASSIST_BASE_URL: "https://ca.example.test", GOOGLE_CLOUD_PROJECT: undefined };

describe("shapeCodeAssistRequest", () => {
  it("rewrites the streaming call to v1internal with the envelope and bearer auth", () => {
    const request = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    const shaped = shapeCodeAssistRequest(
      "https://ca.example.test/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      { method: "POST", headers: { "x-goog-api-key": "at-3" }, body: JSON.stringify(request) },
      { accessToken: "at-3" },
      { config, project: "proj-1" },
    );
    expect(shaped.url).toBe("https://ca.example.test/v1internal:streamGenerateContent?alt=sse");
    const headers = new Headers(shaped.init.headers);
    expect(headers.get("x-goog-api-key")).toBeNull();
    expect(headers.get("authorization")).toBe("Bearer at-3");
    const body = JSON.parse(shaped.init.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ model: "gemini-2.5-pro", project: "proj-1", request });
    expect(body.user_prompt_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("unwrapCodeAssistStream", () => {
  it("unwraps each data line, also when a line is split across chunks", async () => {
    const text = `data: ${JSON.stringify({ response: { candidates: [{ index: 0 }] }, traceId: "t" })}\n\ndata: ${JSON.stringify({ response: { usageMetadata: { totalTokenCount: 3 } } })}\n\n`;
    const bytes = new TextEncoder().encode(text);
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    expect(await readAll(unwrapCodeAssistStream(source))).toBe(
      `data: {"candidates":[{"index":0}]}\n\ndata: {"usageMetadata":{"totalTokenCount":3}}\n\n`,
    );
  });
});
