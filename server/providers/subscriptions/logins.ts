// The subscription sign-ins a user runs from Settings → Providers, behind the provider-logins router:
// start (an authorize URL for the code-paste flows, a user code for ChatGPT's device flow), complete
// (the pasted code, checked against the stored state, exchanged with the stored PKCE verifier), poll
// (the device flow; at most one vendor poll per interval across instances, slower after a 429, gone
// after 15 minutes), cancel. A finished sign-in becomes a subscription account and its pending row
// is deleted exactly once. Nothing returned here carries a token.
import type { Db } from "../../db/client.ts";
import { env as processEnv, type Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { anthropicAuthorizeUrl, exchangeAnthropicCode } from "../anthropic/subscription.ts";
import { exchangeGoogleCode, googleAuthorizeUrl } from "../google/code-assist.ts";
import {
  DEVICE_LOGIN_TTL_MS,
  exchangeDeviceAuthorization,
  pollDeviceCode,
  readChatGptClaims,
  requestDeviceCode,
} from "../openai/chatgpt.ts";
import { getOwnedAccount } from "../accounts.ts";
import { saveSubscriptionAccount } from "./account-tokens.ts";
import { assertFlowEnabled, modelsOf, type SubscriptionFlow, vendorName } from "./flows.ts";
import { claimPoll, createLogin, deleteLogin, loadLogin, slowDownPolls, takeLogin } from "./login-store.ts";
import { parsePastedCode } from "./pasted-code.ts";
import { createPkce, createState } from "./pkce.ts";

const CODE_PASTE_TTL_MS = 15 * 60_000;
const SLOW_DOWN_STEP_MS = 5_000;

export type LoginStart =
  | { loginId: string; flow: SubscriptionFlow; kind: "code-paste"; authorizeUrl: string; expiresAt: Date }
  | {
      loginId: string;
      flow: "openai";
      kind: "device-code";
      userCode: string;
      verificationUrl: string;
      intervalMs: number;
      expiresAt: Date;
    };

export type PollResult = { status: "pending"; intervalMs: number } | { status: "connected"; accountId: string };

/** What every pending sign-in keeps besides its flow's own secrets. */
type Target = { reconnectAccountId?: string };
type CodePasteSecrets = Target & { verifier: string; state: string };
type DeviceSecrets = Target & { deviceAuthId: string; userCode: string };

export type StartOptions = { reconnectAccountId?: string };

/** The account a Reconnect names must be the user's own subscription of that flow. */
async function reconnectTarget(db: Db, ownerId: string, flow: SubscriptionFlow, options: StartOptions) {
  if (!options.reconnectAccountId) return {};
  const account = await getOwnedAccount(db, ownerId, options.reconnectAccountId);
  if (account.kind !== "subscription" || account.provider !== flow) {
    throw new AppError("bad_request:provider", `That account is not a ${vendorName(flow)} subscription.`);
  }
  return { reconnectAccountId: account.id };
}

export async function startLogin(
  db: Db,
  ownerId: string,
  flow: SubscriptionFlow,
  env: Env = processEnv,
  signal?: AbortSignal,
  options: StartOptions = {},
): Promise<LoginStart> {
  assertFlowEnabled(env, flow);
  const target = await reconnectTarget(db, ownerId, flow, options);
  if (flow === "openai") {
    const device = await requestDeviceCode(env, signal);
    const expiresAt = new Date(Date.now() + DEVICE_LOGIN_TTL_MS);
    const secrets: DeviceSecrets = { ...target, deviceAuthId: device.deviceAuthId, userCode: device.userCode };
    const { id } = await createLogin(db, ownerId, { flow, secrets, expiresAt, intervalMs: device.intervalMs });
    const { userCode, verificationUrl, intervalMs } = device;
    return { loginId: id, flow, kind: "device-code", userCode, verificationUrl, intervalMs, expiresAt };
  }
  const pkce = createPkce();
  const state = createState();
  const authorizeUrl =
    flow === "anthropic" ? anthropicAuthorizeUrl(env, pkce, state) : googleAuthorizeUrl(env, pkce, state);
  const expiresAt = new Date(Date.now() + CODE_PASTE_TTL_MS);
  const secrets: CodePasteSecrets = { ...target, verifier: pkce.verifier, state };
  const { id } = await createLogin(db, ownerId, { flow, secrets, expiresAt });
  return { loginId: id, flow, kind: "code-paste", authorizeUrl, expiresAt };
}

/** Finishes a code-paste sign-in with what the user pasted; answers the new account's id. */
export async function completeLogin(
  db: Db,
  ownerId: string,
  loginId: string,
  pasted: string,
  env: Env = processEnv,
  signal?: AbortSignal,
): Promise<{ accountId: string }> {
  const login = await loadLogin<CodePasteSecrets>(db, ownerId, loginId);
  assertFlowEnabled(env, login.flow);
  if (login.flow === "openai") throw new AppError("bad_request:provider", "ChatGPT sign-in has no code to paste.");
  const { code, state } = parsePastedCode(pasted);
  if (state !== undefined && state !== login.secrets.state) {
    throw new AppError(
      "bad_request:provider",
      "That code belongs to another sign-in; paste the one from this sign-in.",
    );
  }
  if (login.flow === "anthropic" && state === undefined) {
    throw new AppError("bad_request:provider", "Paste the whole code, including the part after #.");
  }
  if (!(await takeLogin(db, login.id))) throw new AppError("conflict:provider", "That sign-in was already finished.");
  const verifier = login.secrets.verifier;
  const signIn =
    login.flow === "anthropic"
      ? await exchangeAnthropicCode(env, { code, state: login.secrets.state, verifier }, signal)
      : await exchangeGoogleCode(env, { code, verifier }, signal);
  const account = await saveSubscriptionAccount(db, ownerId, {
    provider: login.flow,
    identity: signIn.identity,
    tokens: signIn.tokens,
    models: modelsOf(env, login.flow),
    reconnectAccountId: login.secrets.reconnectAccountId,
  });
  return { accountId: account.id };
}

/** One poll of a device sign-in; polls sooner than the vendor's interval answer pending at once. */
export async function pollLogin(
  db: Db,
  ownerId: string,
  loginId: string,
  env: Env = processEnv,
  signal?: AbortSignal,
): Promise<PollResult> {
  const login = await loadLogin<DeviceSecrets>(db, ownerId, loginId);
  assertFlowEnabled(env, login.flow);
  if (login.flow !== "openai") throw new AppError("bad_request:provider", "Only the ChatGPT sign-in is polled.");
  const intervalMs = login.intervalMs ?? 5_000;
  if (!(await claimPoll(db, login.id, intervalMs))) return { status: "pending", intervalMs };
  const answer = await pollDeviceCode(env, login.secrets, signal);
  if (answer.status === "slow_down") {
    await slowDownPolls(db, login.id, intervalMs + SLOW_DOWN_STEP_MS);
    return { status: "pending", intervalMs: intervalMs + SLOW_DOWN_STEP_MS };
  }
  if (answer.status === "pending") return { status: "pending", intervalMs };
  if (!(await takeLogin(db, login.id))) throw new AppError("conflict:provider", "That sign-in was already finished.");
  const tokens = await exchangeDeviceAuthorization(env, answer, signal);
  const claims = readChatGptClaims(tokens);
  if (!claims.accountId) {
    throw new AppError("bad_request:provider", "This OpenAI account has no ChatGPT plan to sign in with.");
  }
  const account = await saveSubscriptionAccount(db, ownerId, {
    provider: "openai",
    identity: claims.email,
    plan: claims.plan,
    tokens,
    metadata: { chatgptAccountId: claims.accountId },
    models: modelsOf(env, "openai"),
    reconnectAccountId: login.secrets.reconnectAccountId,
  });
  return { status: "connected", accountId: account.id };
}

export async function cancelLogin(db: Db, ownerId: string, loginId: string): Promise<void> {
  await deleteLogin(db, ownerId, loginId);
}
