// The fake provider's control endpoints, for tests that run it out of process (Playwright starts
// main.ts as a web server): GET /_fake/health, GET /_fake/requests[?provider=…], POST /_fake/script
// with `{ provider?, reply }` (reply validated against scriptedReplySchema; without provider it goes
// to the global queue), POST /_fake/clear. Anything else is a 404 that names the request.
import { type IncomingMessage, type ServerResponse } from "node:http";

import { z } from "zod";

import { providerIdSchema, type ProviderId, type ScriptedReply, scriptedReplySchema } from "./script.ts";

export interface ControlTarget {
  enqueue(provider: ProviderId | undefined, reply: ScriptedReply): void;
  requests(provider?: ProviderId): readonly unknown[];
  clear(): void;
}

const scriptRequestSchema = z.object({ provider: providerIdSchema.optional(), reply: scriptedReplySchema });

export async function handleControlRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  target: ControlTarget,
): Promise<void> {
  const route = `${req.method} ${url.pathname}`;
  if (route === "GET /_fake/health") return sendJson(res, 200, { ok: true });
  if (route === "GET /_fake/requests") {
    const provider = providerIdSchema.optional().safeParse(url.searchParams.get("provider") ?? undefined);
    if (!provider.success) return sendJson(res, 400, { error: { message: "unknown provider" } });
    return sendJson(res, 200, target.requests(provider.data));
  }
  if (route === "POST /_fake/clear") {
    target.clear();
    return sendJson(res, 200, { ok: true });
  }
  if (route === "POST /_fake/script") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return sendJson(res, 400, { error: { message: "body must be JSON" } });
    }
    const parsed = scriptRequestSchema.safeParse(json);
    if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
    target.enqueue(parsed.data.provider, parsed.data.reply);
    return sendJson(res, 200, { ok: true });
  }
  sendJson(res, 404, { error: { message: `The fake provider has no route for ${route}` } });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
