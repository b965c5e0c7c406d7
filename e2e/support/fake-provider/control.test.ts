// The fake provider's own HTTP surface, without the AI SDK: the control endpoints that out-of-process
// runs (main.ts under Playwright) are scripted through, the order in which queued replies are served,
// the default reply, and the provider-format 400 for requests the fake does not implement.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { type FakeProvider, startFakeProvider } from "./server.ts";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

const post = (path: string, body?: unknown) =>
  fetch(`${fake.url}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });

/** Streams one compat chat completion and returns the concatenated `delta.content`. */
async function compatText(userText = "hi"): Promise<string> {
  const response = await post("/compat/v1/chat/completions", {
    model: "m",
    stream: true,
    messages: [{ role: "user", content: userText }],
  });
  const events = (await response.text()).split("\n\n").filter((event) => event.startsWith("data: {"));
  return events
    .map((event) => JSON.parse(event.slice("data: ".length)) as { choices: { delta?: { content?: string } }[] })
    .map((chunk) => chunk.choices[0]?.delta?.content ?? "")
    .join("");
}

describe("fake provider HTTP surface", () => {
  it("serves the provider's own queue, then the global queue, then the default reply", async () => {
    fake.enqueue({ steps: [{ type: "text", text: "global" }] });
    fake.script("compat", { steps: [{ type: "text", text: "mine" }] });

    expect(await compatText()).toBe("mine");
    expect(await compatText()).toBe("global");
    expect(await compatText()).toBe("Hello from the fake provider.");
  });

  it("is scripted, inspected and cleared over HTTP", async () => {
    expect((await fetch(`${fake.url}/_fake/health`)).status).toBe(200);
    expect((await post("/_fake/script", { reply: { steps: [{ type: "text", text: "from HTTP" }] } })).status).toBe(200);
    const invalid = await post("/_fake/script", { provider: "compat", reply: { steps: [{ type: "txt" }] } });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("steps");

    expect(await compatText()).toBe("from HTTP");
    const listed = (await (await fetch(`${fake.url}/_fake/requests?provider=compat`)).json()) as unknown[];
    expect(listed).toMatchObject([{ provider: "compat", path: "/compat/v1/chat/completions", aborted: false }]);
    expect((await fetch(`${fake.url}/_fake/requests?provider=nope`)).status).toBe(400);

    expect((await post("/_fake/clear")).status).toBe(200);
    expect(fake.requests()).toEqual([]);
  });

  it("drops what an earlier attempt of a test left queued for the same message, and keeps its own", async () => {
    const script = (attempt: string, text: string) =>
      post("/_fake/script", {
        provider: "compat",
        reply: { forMessage: "retried text", attempt, steps: [{ type: "text", text }] },
      });
    await script("spec-1#0", "stale first");
    await script("spec-1#0", "stale second");
    await script("spec-2#0", "another test's");
    await script("spec-1#1", "retry first");
    await script("spec-1#1", "retry second");

    expect(await compatText("retried text")).toBe("retry first");
    expect(await compatText("retried text")).toBe("retry second");
    expect(await compatText("retried text")).toBe("Hello from the fake provider.");
  });

  it("rejects non-streaming requests in each provider's error format", async () => {
    const cases = [
      ["/anthropic/v1/messages", { type: "error", error: { type: "invalid_request_error" } }],
      ["/openai/v1/responses", { error: { type: "invalid_request_error" } }],
      ["/google/v1beta/models/gemini-2.5-flash:generateContent", { error: { code: 400, status: "INVALID_ARGUMENT" } }],
      ["/compat/v1/chat/completions", { error: { type: "invalid_request_error" } }],
    ] as const;
    for (const [path, error] of cases) {
      const response = await post(path, { model: "m", messages: [] });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject(error);
    }
    expect(fake.requests().map((request) => request.status)).toEqual([400, 400, 400, 400]);
  });
});
