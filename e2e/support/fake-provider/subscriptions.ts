// The subscription endpoints of the fake provider, with the checks the real ones make (or are
// reported to make): each request shape is verified strictly and refused with a 400 in the vendor's
// error format when anything is off, and the bearer token must be a live harness token of that vendor
// (401 otherwise, which drives the app's refresh). Claude: `/anthropic/v1/messages?beta=true` with
// the OAuth betas, Claude Code's user agent and system prefix. ChatGPT: the Codex `/responses`
// backend's headers and body fields, with `instructions` one of the stock Codex prompts (here the
// harness stand-ins in ./codex-instructions, which the app is pointed at). Gemini: the Code Assist envelope, against the project this
// user was onboarded to (load / onboard / operation endpoints live here too). Pure checks, plus the
// small onboarding state.
import { readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

import { bearerOf, verifyAccessToken, type Vendor } from "../provider-oauth/tokens.ts";
import { sendJson } from "./control.ts";
import { asArray, asRecord, asString, records } from "./wire.ts";

export type HttpFailure = { status: number; message: string; type?: string };

const CLAUDE_CODE_PREFIX = "You are Claude Code, Anthropic's official CLI for Claude.";
const REQUIRED_CLAUDE_BETAS = ["oauth-2025-04-20", "interleaved-thinking-2025-05-14"];
const CLAUDE_ONLY =
  "This credential is only authorized for use with Claude Code and cannot be used for other API requests.";

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

function checkBearer(req: IncomingMessage, vendor: Vendor, unauthorizedType: string) {
  const check = verifyAccessToken(bearerOf(header(req, "authorization")), vendor);
  return check.ok
    ? { claims: check.claims }
    : { failure: { status: 401, message: `invalid bearer token (${check.reason})`, type: unauthorizedType } };
}

/** Requests with a bearer token are subscription requests; API-key requests are left alone. */
export function checkClaudeCode(
  req: IncomingMessage,
  url: URL,
  body: Record<string, unknown>,
): HttpFailure | undefined {
  if (header(req, "authorization") === undefined) return undefined;
  const bearer = checkBearer(req, "anthropic", "authentication_error");
  if (bearer.failure) return bearer.failure;
  const refuse = (why: string): HttpFailure => ({ status: 400, message: `${CLAUDE_ONLY} (${why})` });
  if (header(req, "x-api-key") !== undefined) return refuse("x-api-key must not be sent with a bearer token");
  if (url.searchParams.get("beta") !== "true") return refuse("beta=true is missing");
  if (header(req, "anthropic-version") !== "2023-06-01") return refuse("anthropic-version must be 2023-06-01");
  const betas = (header(req, "anthropic-beta") ?? "").split(",").map((beta) => beta.trim());
  const missing = REQUIRED_CLAUDE_BETAS.find((beta) => !betas.includes(beta));
  if (missing) return refuse(`anthropic-beta lacks ${missing}`);
  if (new Set(betas).size !== betas.length) return refuse("anthropic-beta repeats a flag");
  if (!/^claude-cli\/\d/.test(header(req, "user-agent") ?? "")) return refuse("user-agent is not claude-cli");
  const first = records(body.system)[0];
  if (!Array.isArray(body.system) || first?.type !== "text" || first.text !== CLAUDE_CODE_PREFIX) {
    return refuse("the first system block must be Claude Code's identity");
  }
  return undefined;
}

const CHATGPT_AUTH_CLAIM = "https://api.openai.com/auth";

/** The harness' stand-ins for the Codex CLI's stock prompts: CHATGPT_INSTRUCTIONS_DIR in tests. */
export const CODEX_INSTRUCTIONS_DIR = path.join(import.meta.dirname, "codex-instructions");
const KNOWN_CODEX_INSTRUCTIONS = new Set(
  readdirSync(CODEX_INSTRUCTIONS_DIR)
    .filter((name) => name.endsWith(".md"))
    .map((name) => readFileSync(path.join(CODEX_INSTRUCTIONS_DIR, name), "utf8")),
);

export function checkCodex(req: IncomingMessage, _url: URL, body: Record<string, unknown>): HttpFailure | undefined {
  const bearer = checkBearer(req, "openai", "invalid_request_error");
  if (bearer.failure) return bearer.failure;
  const refuse = (message: string): HttpFailure => ({ status: 400, message });
  const accountId = asString(asRecord(bearer.claims[CHATGPT_AUTH_CLAIM]).chatgpt_account_id);
  if (header(req, "chatgpt-account-id") !== accountId) return refuse("ChatGPT-Account-ID does not match the token");
  if (header(req, "originator") !== "codex_cli_rs") return refuse("originator must be codex_cli_rs");
  if (header(req, "openai-beta") !== "responses=experimental")
    return refuse("OpenAI-Beta must be responses=experimental");
  if (!header(req, "session_id")) return refuse("session_id header is missing");
  if (!(header(req, "accept") ?? "").includes("text/event-stream")) return refuse("Accept must be text/event-stream");
  if (body.store !== false) return refuse("Store must be set to false");
  if (body.stream !== true) return refuse("Stream must be set to true");
  if ("max_output_tokens" in body) return refuse("Unsupported parameter: max_output_tokens");
  if (typeof body.instructions !== "string" || !KNOWN_CODEX_INSTRUCTIONS.has(body.instructions)) {
    return refuse("Instructions are not valid");
  }
  const include = asArray(body.include);
  if (body.reasoning != null && !include.includes("reasoning.encrypted_content")) {
    return refuse("include must carry reasoning.encrypted_content when reasoning is on and store is false");
  }
  return undefined;
}

/** Code Assist onboarding state: the project of each onboarded user (by token subject). */
export class CodeAssistAccounts {
  readonly projects = new Map<string, string>();
  readonly operations = new Map<string, { subject: string; polls: number }>();
  /** How many GETs an onboarding operation takes before it is done. */
  pollsToFinish = 1;
}

export function checkCodeAssist(
  accounts: CodeAssistAccounts,
  req: IncomingMessage,
  body: Record<string, unknown>,
): HttpFailure | undefined {
  const bearer = checkBearer(req, "google", "UNAUTHENTICATED");
  if (bearer.failure) return bearer.failure;
  const refuse = (message: string): HttpFailure => ({ status: 400, message, type: "INVALID_ARGUMENT" });
  if (header(req, "x-goog-api-key") !== undefined) return refuse("x-goog-api-key is not accepted by Code Assist");
  const project = accounts.projects.get(asString(bearer.claims.sub) ?? "");
  if (!project) return { status: 403, message: "user is not onboarded to Code Assist", type: "PERMISSION_DENIED" };
  if (body.project !== project) return refuse(`project must be ${project}`);
  if (!asString(body.model)) return refuse("model is required");
  if (!asString(body.user_prompt_id)) return refuse("user_prompt_id is required");
  if (!Array.isArray(asRecord(body.request).contents)) return refuse("request.contents is required");
  return undefined;
}

const googleError = (res: ServerResponse, status: number, message: string, type: string) =>
  sendJson(res, status, { error: { code: status, message, status: type } });

/** loadCodeAssist, onboardUser and the operation GET; false when the path is none of them. */
export function handleCodeAssistSetup(
  accounts: CodeAssistAccounts,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: Record<string, unknown>,
): boolean {
  const method = /^\/code-assist\/v1internal(?::(loadCodeAssist|onboardUser)|\/(operations\/[\w-]+))$/.exec(
    url.pathname,
  );
  if (!method) return false;
  const bearer = checkBearer(req, "google", "UNAUTHENTICATED");
  if (bearer.failure) {
    googleError(res, 401, bearer.failure.message, "UNAUTHENTICATED");
    return true;
  }
  const subject = asString(bearer.claims.sub) ?? "";
  const [, rpc, operation] = method;
  if (rpc && asRecord(body.metadata).pluginType !== "GEMINI") {
    googleError(res, 400, "metadata.pluginType must be GEMINI", "INVALID_ARGUMENT");
  } else if (rpc === "loadCodeAssist") {
    const project = accounts.projects.get(subject);
    const freeTier = { id: "free-tier", name: "Gemini Code Assist for individuals", isDefault: true };
    sendJson(
      res,
      200,
      project ? { currentTier: freeTier, cloudaicompanionProject: project } : { allowedTiers: [freeTier] },
    );
  } else if (rpc === "onboardUser") {
    if (body.tierId !== "free-tier") googleError(res, 400, "unknown tier", "INVALID_ARGUMENT");
    else if (body.cloudaicompanionProject !== undefined) {
      googleError(res, 412, "free tier must not name a project", "FAILED_PRECONDITION");
    } else {
      const name = `operations/onboard-${accounts.operations.size + 1}`;
      accounts.operations.set(name, { subject, polls: 0 });
      sendJson(res, 200, { name, done: false });
    }
  } else {
    const pending = accounts.operations.get(operation ?? "");
    if (!pending || pending.subject !== subject) googleError(res, 404, "no such operation", "NOT_FOUND");
    else if (++pending.polls < accounts.pollsToFinish) sendJson(res, 200, { name: operation, done: false });
    else {
      const project = `fake-companion-${subject.split("@")[0]}`;
      accounts.projects.set(subject, project);
      sendJson(res, 200, {
        name: operation,
        done: true,
        response: { cloudaicompanionProject: { id: project, name: project } },
      });
    }
  }
  return true;
}
