// Real encrypted reasoning (OpenAI) and thinking / thought signatures (Anthropic, Gemini) only verify
// for the account and endpoint that issued them: the Codex backend refuses an API key's encrypted
// reasoning, Code Assist a Gemini API key's signatures, one key another key's. The fake provider
// plays that: every signature it generates (never a scripted one) is bound to the request's scope —
// the endpoint plus the account behind the credential (the ChatGPT account, a bearer token's subject,
// or the API key) — and a request that echoes one bound to another scope is refused with the API's
// own 400. Pure.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

import type { ProviderId } from "./script.ts";
import { asRecord, asString, fakeSignature } from "./wire.ts";

const SCOPE_MARK = ".scope-";

/** What each API answers (400) for a signature or encrypted reasoning another account issued. */
const FOREIGN_SIGNATURE: Record<ProviderId, { message: string; type?: string }> = {
  anthropic: { message: "messages: Invalid `signature` in `thinking` block" },
  openai: { message: "The encrypted content could not be verified.", type: "invalid_encrypted_content" },
  google: { message: "Thought signature is not valid." },
  compat: { message: "Invalid reasoning content." },
};

const headerValue = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

function bearerSubject(req: IncomingMessage): string | undefined {
  const payload = /^Bearer (\S+)$/i.exec(headerValue(req, "authorization") ?? "")?.[1]?.split(".")[1];
  if (!payload) return undefined;
  try {
    return asString(asRecord(JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))).sub);
  } catch {
    return undefined;
  }
}

/** The scope of a request to `endpoint`: a short hash of the endpoint and the account behind it. */
export function requestScope(req: IncomingMessage, endpoint: string): string {
  const credential =
    headerValue(req, "chatgpt-account-id") ??
    bearerSubject(req) ??
    headerValue(req, "x-api-key") ??
    headerValue(req, "x-goog-api-key") ??
    headerValue(req, "authorization") ??
    "";
  return createHash("sha256").update(`${endpoint}\n${credential}`).digest("hex").slice(0, 12);
}

/** A generated signature over `seed`, bound to `scope` when there is one. */
export function scopedSignature(seed: string, prefix: string, scope: string | undefined): string {
  const signature = fakeSignature(seed, prefix);
  return scope === undefined ? signature : `${signature}${SCOPE_MARK}${scope}`;
}

/** The first generated signature anywhere in `value` that is bound to another scope. */
export function findForeignSignature(value: unknown, scope: string): string | undefined {
  if (typeof value === "string") {
    const at = value.lastIndexOf(SCOPE_MARK);
    return at >= 0 && value.slice(at + SCOPE_MARK.length) !== scope ? value : undefined;
  }
  const children = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null
      ? Object.values(value)
      : [];
  for (const child of children) {
    const found = findForeignSignature(child, scope);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The 400 the provider answers when `body` echoes another scope's signature; undefined when clean. */
export function foreignSignatureFailure(provider: ProviderId, body: unknown, scope: string) {
  return findForeignSignature(body, scope) === undefined ? undefined : FOREIGN_SIGNATURE[provider];
}
