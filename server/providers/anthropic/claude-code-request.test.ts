// The Claude subscription request must look like Claude Code's: bearer instead of x-api-key, the OAuth
// betas merged without duplicates, ?beta=true, the CLI user agent, and Claude Code's identity as the
// first system block whatever system prompt the SDK sent.
import { describe, expect, it } from "vitest";

import { CLAUDE_CODE_SYSTEM_PREFIX, shapeClaudeCodeRequest } from "./claude-code-request.ts";

const tokens = { accessToken: "at-1", refreshToken: "rt-1" };
const URL_IN = "https://api.example.test/v1/messages";

function shape(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const shaped = shapeClaudeCodeRequest(
    URL_IN,
    {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", ...headers },
      body: JSON.stringify(body),
    },
    tokens,
  );
  return {
    ...shaped,
    headers: new Headers(shaped.init.headers),
    json: JSON.parse(shaped.init.body as string) as Record<string, unknown>,
  };
}

describe("shapeClaudeCodeRequest", () => {
  it("authenticates with the bearer token, adds the betas, beta=true and the CLI user agent", () => {
    const { url, headers } = shape(
      { model: "m" },
      { "anthropic-beta": "fine-grained-tool-streaming-2025-05-14,oauth-2025-04-20" },
    );
    expect(new URL(url).searchParams.get("beta")).toBe("true");
    expect(headers.get("x-api-key")).toBeNull();
    expect(headers.get("authorization")).toBe("Bearer at-1");
    expect(headers.get("anthropic-beta")!.split(",").sort()).toEqual(
      ["fine-grained-tool-streaming-2025-05-14", "interleaved-thinking-2025-05-14", "oauth-2025-04-20"].sort(),
    );
    expect(headers.get("user-agent")).toMatch(/^claude-cli\/\d/);
    expect(headers.get("anthropic-version")).toBe("2023-06-01");
  });

  it("puts Claude Code's identity first and keeps the app's system prompt after it", () => {
    const blocks = [{ type: "text", text: "You are Patchbay.", cache_control: { type: "ephemeral" } }];
    expect(shape({ system: blocks }).json.system).toEqual([
      { type: "text", text: CLAUDE_CODE_SYSTEM_PREFIX },
      ...blocks,
    ]);
    expect(shape({ system: "Be brief." }).json.system).toEqual([
      { type: "text", text: CLAUDE_CODE_SYSTEM_PREFIX },
      { type: "text", text: "Be brief." },
    ]);
    expect(shape({ messages: [] }).json.system).toEqual([{ type: "text", text: CLAUDE_CODE_SYSTEM_PREFIX }]);
  });

  it("does not add the identity twice when the request is shaped again (a retry after a refresh)", () => {
    const once = shape({ system: "x" });
    const twice = shapeClaudeCodeRequest(once.url, { ...once.init }, tokens);
    expect(JSON.parse(twice.init.body as string)).toEqual(once.json);
    expect(new URL(twice.url).search).toBe("?beta=true");
  });
});
