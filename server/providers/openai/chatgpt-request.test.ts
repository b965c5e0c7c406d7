// The ChatGPT backend refuses anything that is not shaped like the Codex CLI's request: these pin the
// headers and body fields, and that the system prompt moves from `input` to `instructions`.
import { describe, expect, it } from "vitest";

import { shapeChatGptRequest, shapeCodexBody } from "./chatgpt-request.ts";

describe("shapeCodexBody", () => {
  it("forces store false and stream true, drops max_output_tokens, moves system messages to instructions", () => {
    const body = shapeCodexBody({
      model: "gpt-5.1-codex",
      input: [
        { role: "system", content: "You are Patchbay." },
        { role: "developer", content: [{ type: "input_text", text: "Use tools." }] },
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
      ],
      store: true,
      max_output_tokens: 1000,
    });
    expect(body).toMatchObject({ store: false, stream: true, instructions: "You are Patchbay.\n\nUse tools." });
    expect(body).not.toHaveProperty("max_output_tokens");
    expect(body.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "hi" }] }]);
    expect(body).not.toHaveProperty("include");
  });

  it("asks for encrypted reasoning whenever reasoning is on, without duplicating it", () => {
    expect(shapeCodexBody({ input: [], reasoning: { effort: "medium" } }).include).toEqual([
      "reasoning.encrypted_content",
    ]);
    expect(
      shapeCodexBody({ input: [], reasoning: { effort: "low" }, include: ["reasoning.encrypted_content"] }).include,
    ).toEqual(["reasoning.encrypted_content"]);
  });

  it("keeps function calls and outputs in input", () => {
    const input = [
      { role: "user", content: "time?" },
      { type: "function_call", call_id: "c1", name: "t", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "noon" },
    ];
    expect(shapeCodexBody({ input }).input).toEqual(input);
  });
});

describe("shapeChatGptRequest", () => {
  it("sends the Codex headers with the account id and session id", () => {
    const shaped = shapeChatGptRequest(
      "https://chatgpt.example.test/backend-api/codex/responses",
      { method: "POST", headers: { authorization: "Bearer old" }, body: JSON.stringify({ input: [] }) },
      { accessToken: "at-2" },
      { accountId: "acct-1", sessionId: "sess-1" },
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
    expect(JSON.parse(shaped.init.body as string)).toMatchObject({ prompt_cache_key: "sess-1", store: false });
  });
});
