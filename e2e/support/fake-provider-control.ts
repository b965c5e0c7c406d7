// Scripts the fake provider server (running as a Playwright web server) from a spec.
import type { APIRequestContext } from "@playwright/test";

import { FAKE_PROVIDER_URL } from "./config.ts";

export async function scriptFakeReply(
  request: APIRequestContext,
  provider: "anthropic" | "openai" | "google",
  reply: Record<string, unknown>,
): Promise<void> {
  const response = await request.post(`${FAKE_PROVIDER_URL}/_fake/script`, { data: { provider, reply } });
  if (!response.ok()) throw new Error(`scripting the fake provider failed: ${response.status()}`);
}
