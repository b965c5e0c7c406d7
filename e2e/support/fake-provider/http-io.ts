// The fake provider's HTTP plumbing (server.ts): reading a request body, parsing it as a JSON object,
// recording headers with the secrets replaced by "present", and writing a reply as one SSE response
// that notices a client hanging up (and can end the socket abruptly, as a dropped connection).
import { type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

import { asRecord, formatSse, type WireEvent } from "./wire.ts";

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key"]);

/**
 * Writes the events as one SSE response, pausing `delayMs` between events. Stops as soon as the
 * client disconnects (reporting it through onAbort); an AbruptClose event ends the socket without
 * finishing the HTTP response, which the client sees as a dropped connection.
 */
export async function writeStream(res: ServerResponse, events: WireEvent[], delayMs: number, onAbort: () => void) {
  const hangUp = new AbortController();
  let isClosingOnPurpose = false;
  res.on("close", () => {
    if (!res.writableFinished && !isClosingOnPurpose) onAbort();
    hangUp.abort();
  });
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  res.flushHeaders();
  for (const [index, event] of events.entries()) {
    if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal: hangUp.signal }).catch(() => undefined);
    if (hangUp.signal.aborted) return;
    if ("abruptClose" in event) {
      isClosingOnPurpose = true;
      res.socket?.end();
      return;
    }
    res.write(formatSse(event));
  }
  res.end();
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function parseJson(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? asRecord(value) : undefined;
  } catch {
    return undefined;
  }
}

export function redactHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.has(name) ? "present" : Array.isArray(value) ? value.join(", ") : (value ?? ""),
    ]),
  );
}
