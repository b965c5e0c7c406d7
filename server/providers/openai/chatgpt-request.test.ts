// The ChatGPT backend refuses anything that is not shaped like the Codex CLI's request: these pin the
// headers and body fields, that `instructions` is the Codex stock prompt for the model (never
// Patchbay's own), and that Patchbay's system prompt travels as the first developer message of `input`.
import { describe, expect, it } from "vitest";

import { shapeChatGptRequest, shapeCodexBody } from "./chatgpt-request.ts";

const STOCK = "Stock Codex prompt for the model.\n";

describe("shapeCodexBody", () => {
  it("forces store false and stream true, drops max_output_tokens, sends the stock prompt as instructions", () => {
    const body = shapeCodexBody(
      {
        model: "gpt-5.1-codex",
        input: [
          { role: "system", content: "You are Patchbay." },
          { role: "developer", content: [{ type: "input_text", text: "Use tools." }] },
          { role: "user", content: [{ type: "input_text", text: "hi" }] },
        ],
        store: true,
        max_output_tokens: 1000,
      },
      STOCK,
    );
    expect(body).toMatchObject({ store: false, stream: true, instructions: STOCK });
    expect(body).not.toHaveProperty("max_output_tokens");
    expect(body).not.toHaveProperty("include");
  });

  it("moves Patchbay's system prompt (instructions and system / developer items) into one developer message first", () => {
    const body = shapeCodexBody(
      {
        instructions: "You are Patchbay.",
        input: [
          { role: "developer", content: [{ type: "input_text", text: "Use tools." }] },
          { role: "user", content: [{ type: "input_text", text: "hi" }] },
        ],
      },
      STOCK,
    );
    expect(body.instructions).toBe(STOCK);
    expect(body.input).toEqual([
      {
        type: "message",
        role: "developer",
        content: [{ type: "input_text", text: "You are Patchbay.\n\nUse tools." }],
      },
      { role: "user", content: [{ type: "input_text", text: "hi" }] },
    ]);
  });

  it("adds no developer message when there is no system prompt", () => {
    const input = [{ role: "user", content: "hi" }];
    expect(shapeCodexBody({ input }, STOCK)).toMatchObject({ instructions: STOCK, input });
  });

  it("asks for encrypted reasoning whenever reasoning is on, without duplicating it", () => {
    expect(shapeCodexBody({ input: [], reasoning: { effort: "medium" } }, STOCK).include).toEqual([
      "reasoning.encrypted_content",
    ]);
    expect(
      shapeCodexBody({ input: [], reasoning: { effort: "low" }, include: ["reasoning.encrypted_content"] }, STOCK)
        .include,
    ).toEqual(["reasoning.encrypted_content"]);
  });

  it("keeps function calls and outputs in input", () => {
    const input = [
      { role: "user", content: "time?" },
      { type: "function_call", call_id: "c1", name: "t", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "noon" },
    ];
    expect(shapeCodexBody({ input }, STOCK).input).toEqual(input);
  });
});

describe("shapeChatGptRequest", () => {
  it("sends the Codex headers with the account id and session id, and the model's stock instructions", () => {
    const shaped = shapeChatGptRequest(
      "https://chatgpt.example.test/backend-api/codex/responses",
      {
        method: "POST",
        headers: { authorization: "Bearer old" },
        body: JSON.stringify({ model: "gpt-5.1-codex", input: [] }),
      },
      { accessToken: "at-2" },
      {
        accountId: "acct-1",
        sessionId: "sess-1",
        instructionsFor: (model) => (model === "gpt-5.1-codex" ? STOCK : "other"),
      },
    );
    const headers = new Headers(shaped.init.headers);
    expect(Object.fromEntries(headers)).toMatchObject({
      authorization: "Bearer at-2",
      "chatgpt-account-id": "acct-1",
      originator: "codex_cli_rs",
      "openai-beta": "responses=experimental",
      session_id: "sess-1",
      accept: "text/event-stream",
    });
    expect(JSON.parse(shaped.init.body as string)).toMatchObject({
      prompt_cache_key: "sess-1",
      store: false,
      instructions: STOCK,
    });
  });
});
