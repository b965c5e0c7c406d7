// Small node:http helpers the harness OAuth server shares: body reading (JSON or form, as sent),
// JSON and HTML answers, and HTML escaping.
import type { IncomingMessage, ServerResponse } from "node:http";

export type ParsedBody = { kind: "json" | "form" | "none"; fields: Record<string, unknown> };

export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === "object" && value !== null)
        return { kind: "json", fields: value as Record<string, unknown> };
    } catch {
      return { kind: "none", fields: {} };
    }
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return { kind: "form", fields: Object.fromEntries(new URLSearchParams(raw)) };
  }
  return { kind: "none", fields: {} };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function sendHtml(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  );
}

export const str = (value: unknown) => (typeof value === "string" ? value : undefined);
