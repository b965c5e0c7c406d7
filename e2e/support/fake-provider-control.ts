// Scripts the fake provider server (running as a Playwright web server) from a spec. Specs run in
// parallel against one fake provider, so every scripted reply names the user message it answers
// (`forMessage`, a text only that test sends): another test's request can never take it.
import type { APIRequestContext } from "@playwright/test";

import type { ScriptedReply } from "./fake-provider/script.ts";
import { FAKE_PROVIDER_URL } from "./config.ts";

export async function scriptFakeReply(
  request: APIRequestContext,
  provider: "anthropic" | "openai" | "google",
  reply: ScriptedReply & { forMessage: string },
): Promise<void> {
  const response = await request.post(`${FAKE_PROVIDER_URL}/_fake/script`, { data: { provider, reply } });
  if (!response.ok()) throw new Error(`scripting the fake provider failed: ${response.status()}`);
}
