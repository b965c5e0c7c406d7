// Scripts the fake provider server (running as a Playwright web server) from a spec. Specs run in
// parallel against one fake provider, so every scripted reply names the user message it answers
// (`forMessage`, a text only that test sends): another test's request can never take it. Each reply
// also names the test attempt that scripted it, so a retry drops what its failed attempt left queued.
import { test, type APIRequestContext } from "@playwright/test";

import type { ScriptedReply } from "./fake-provider/script.ts";
import { FAKE_PROVIDER_URL } from "./config.ts";

export async function scriptFakeReply(
  request: APIRequestContext,
  provider: "anthropic" | "openai" | "google",
  reply: ScriptedReply & { forMessage: string },
): Promise<void> {
  const data = { provider, reply: { ...reply, attempt: currentAttempt() } };
  const response = await request.post(`${FAKE_PROVIDER_URL}/_fake/script`, { data });
  if (!response.ok()) throw new Error(`scripting the fake provider failed: ${response.status()}`);
}

/** `<test id>#<retry>` inside a test; undefined outside one (a setup script, the benchmark). */
function currentAttempt(): string | undefined {
  try {
    const info = test.info();
    return `${info.testId}#${info.retry}`;
  } catch {
    return undefined;
  }
}
