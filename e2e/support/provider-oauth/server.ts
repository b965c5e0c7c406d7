// The harness' stand-in for the three vendors' sign-in servers (Anthropic, OpenAI, Google), a real
// node:http server on 127.0.0.1 for integration and e2e tests: code-paste PKCE (S256 verified),
// ChatGPT's device code (pending / slow-down / expired), refresh with rotation and revocation (a
// permanent failure). `env` holds the Patchbay variables that point the app at it. Control routes
// under /_oauth let out-of-process tests approve a device code, revoke refresh tokens, tune timings
// and read the token-endpoint log. The Code Assist API itself lives in the fake LLM provider.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { handleAuthorize, handleToken } from "./code-paste.ts";
import { oauthEnvFor } from "./config.ts";
import { handleDevicePoll, handleOpenAIToken, handleUserCode, handleVerificationPage } from "./device.ts";
import { readBody, sendJson, str } from "./http.ts";
import { OAuthState, type TokenCall } from "./state.ts";
import { bearerOf, type Vendor, verifyAccessToken } from "./tokens.ts";
import { USERS } from "./vendors.ts";

export type Timings = {
  accessTtlMs: number;
  deviceIntervalSeconds: number;
  /** Polls closer together than this get 429 (slow down). */
  minPollGapMs: number;
  deviceTtlMs: number;
};

export type ProviderOAuthServer = {
  url: string;
  /** The Patchbay env variables for the OAuth endpoints of this server. */
  env: Record<string, string>;
  state: OAuthState;
  timings: Timings;
  /** Approves a pending device code, as a person on the verification page would. */
  approveDevice(userCode: string): boolean;
  revokeRefreshTokens(vendor: Vendor): void;
  tokenCalls(vendor?: Vendor): TokenCall[];
  close(): Promise<void>;
};

const DEFAULT_TIMINGS: Timings = {
  accessTtlMs: 3_600_000,
  deviceIntervalSeconds: 1,
  minPollGapMs: 500,
  deviceTtlMs: 900_000,
};

export async function startProviderOAuth(options: { port?: number; timings?: Partial<Timings> } = {}) {
  const state = new OAuthState();
  const timings: Timings = { ...DEFAULT_TIMINGS, ...options.timings };
  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = oauthEnvFor(url);
  const redirectUris = { anthropic: env.ANTHROPIC_OAUTH_REDIRECT_URI!, google: env.GOOGLE_OAUTH_REDIRECT_URI! };
  const pasteOptions = { redirectUris, accessTtlMs: () => timings.accessTtlMs };
  const deviceOptions = {
    issuer: `${url}/openai`,
    intervalSeconds: () => timings.deviceIntervalSeconds,
    minPollGapMs: () => timings.minPollGapMs,
    deviceTtlMs: () => timings.deviceTtlMs,
    accessTtlMs: () => timings.accessTtlMs,
  };
  const approveDevice = (userCode: string) => {
    const device = [...state.devices.values()].find((candidate) => candidate.userCode === userCode);
    if (device) device.isApproved = true;
    return device !== undefined;
  };

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://harness");
    const key = `${req.method} ${url.pathname}`;
    if (url.pathname === "/anthropic/oauth/authorize")
      return handleAuthorize("anthropic", req, res, url, state, pasteOptions);
    if (url.pathname === "/google/o/oauth2/v2/auth")
      return handleAuthorize("google", req, res, url, state, pasteOptions);
    if (url.pathname === "/openai/codex/device") return handleVerificationPage(req, res, state);
    switch (key) {
      case "POST /anthropic/v1/oauth/token":
        return handleToken("anthropic", req, res, state, pasteOptions);
      case "POST /google/token":
        return handleToken("google", req, res, state, pasteOptions);
      case "GET /google/userinfo": {
        const check = verifyAccessToken(bearerOf(req.headers.authorization), "google");
        if (!check.ok)
          return sendJson(res, 401, { error: { code: 401, message: check.reason, status: "UNAUTHENTICATED" } });
        return sendJson(
          res,
          200,
          state.hidesIdentity ? { id: "1001" } : { id: "1001", email: USERS.google.email, verified_email: true },
        );
      }
      case "POST /openai/api/accounts/deviceauth/usercode":
        return handleUserCode(req, res, state, deviceOptions);
      case "POST /openai/api/accounts/deviceauth/token":
        return handleDevicePoll(req, res, state, deviceOptions);
      case "POST /openai/oauth/token":
        return handleOpenAIToken(req, res, state, deviceOptions);
      default:
        return control(key, req, res);
    }
  }

  async function control(key: string, req: IncomingMessage, res: ServerResponse) {
    if (key === "GET /_oauth/health") return sendJson(res, 200, { ok: true });
    if (key === "GET /_oauth/log") return sendJson(res, 200, state.log);
    const body = req.method === "POST" ? (await readBody(req)).fields : {};
    if (key === "POST /_oauth/approve")
      return sendJson(res, 200, { approved: approveDevice(str(body.userCode) ?? "") });
    if (key === "POST /_oauth/revoke") {
      state.revokeRefreshTokens(str(body.vendor) as Vendor);
      return sendJson(res, 200, { ok: true });
    }
    if (key === "POST /_oauth/timings") {
      Object.assign(timings, body);
      return sendJson(res, 200, timings);
    }
    if (key === "POST /_oauth/reset") {
      state.reset();
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { error: `The harness OAuth server has no route for ${key}` });
  }

  return {
    url,
    env,
    state,
    timings,
    approveDevice,
    revokeRefreshTokens: (vendor) => state.revokeRefreshTokens(vendor),
    tokenCalls: (vendor) => state.log.filter((call) => vendor === undefined || call.vendor === vendor),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  } satisfies ProviderOAuthServer;
}
