// Code Assist onboarding, once per Google account, as the Gemini CLI's setup does it: `loadCodeAssist`
// tells whether the user already has a tier (then its project is used); otherwise `onboardUser` with
// the default allowed tier — without a project for the free tier, where sending one fails — answers a
// long-running operation, polled with GET `/v1internal/<name>` until done, whose response names the
// Cloud AI Companion project every later request must carry. GOOGLE_CLOUD_PROJECT supplies the
// project for paid / Workspace tiers. The poll interval is a parameter so tests do not wait.
import { setTimeout as sleep } from "node:timers/promises";

import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { sendOAuthRequest, type OAuthAnswer } from "../subscriptions/oauth-http.ts";

export type CodeAssistConfig = Pick<Env, "CODE_ASSIST_BASE_URL" | "GOOGLE_CLOUD_PROJECT">;
export type CodeAssistSetup = { project: string; tier: string; tierName?: string };
export type OnboardingOptions = { signal?: AbortSignal; pollIntervalMs?: number; maxPolls?: number };

const VENDOR = "Google Code Assist";
export const GEMINI_CLI_USER_AGENT = "GeminiCLI/0.21.0 (linux; x64; patchbay)";
const FREE_TIER = "free-tier";

type Tier = { id?: string; name?: string; isDefault?: boolean };
type Json = Record<string, unknown>;

export const codeAssistUrl = (config: CodeAssistConfig, method: string) =>
  `${config.CODE_ASSIST_BASE_URL.replace(/\/+$/, "")}/v1internal${method}`;

function call(config: CodeAssistConfig, accessToken: string, method: string, body?: Json, signal?: AbortSignal) {
  return sendOAuthRequest(
    codeAssistUrl(config, method),
    {
      method: body === undefined ? "GET" : "POST",
      ...(body !== undefined && { json: body }),
      headers: { authorization: `Bearer ${accessToken}`, "user-agent": GEMINI_CLI_USER_AGENT },
      signal,
    },
    VENDOR,
  );
}

function ensureOk(answer: OAuthAnswer, step: string): Json {
  if (answer.status === 200) return answer.body;
  throw new AppError("unavailable:provider", `Gemini setup failed at ${step} (HTTP ${answer.status}).`);
}

const projectIdOf = (value: unknown): string | undefined => {
  if (typeof value === "string" && value !== "") return value;
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
};

export async function setupCodeAssist(
  config: CodeAssistConfig,
  accessToken: string,
  options: OnboardingOptions = {},
): Promise<CodeAssistSetup> {
  const userProject = config.GOOGLE_CLOUD_PROJECT;
  const metadata = {
    ideType: "IDE_UNSPECIFIED",
    platform: "PLATFORM_UNSPECIFIED",
    pluginType: "GEMINI",
    ...(userProject && { duetProject: userProject }),
  };
  const loaded = ensureOk(
    await call(
      config,
      accessToken,
      ":loadCodeAssist",
      { ...(userProject && { cloudaicompanionProject: userProject }), metadata },
      options.signal,
    ),
    "loadCodeAssist",
  );
  const current = loaded.currentTier as Tier | undefined;
  if (current?.id) {
    const project = projectIdOf(loaded.cloudaicompanionProject) ?? userProject;
    if (!project) throw needsProject();
    return { project, tier: current.id, ...(current.name && { tierName: current.name }) };
  }
  const allowed = (loaded.allowedTiers as Tier[] | undefined) ?? [];
  const tier = allowed.find((candidate) => candidate.isDefault) ?? { id: "legacy-tier" };
  if (allowed.length === 0 && Array.isArray(loaded.ineligibleTiers) && loaded.ineligibleTiers.length > 0) {
    throw new AppError("forbidden:provider", "This Google account is not eligible for Gemini Code Assist.");
  }
  const tierId = tier.id ?? "legacy-tier";
  if (tierId !== FREE_TIER && !userProject) throw needsProject();
  const body = tierId === FREE_TIER ? { tierId, metadata } : { tierId, cloudaicompanionProject: userProject, metadata };
  let operation = ensureOk(await call(config, accessToken, ":onboardUser", body, options.signal), "onboardUser");
  for (let polls = 0; operation.done !== true; polls++) {
    if (polls >= (options.maxPolls ?? 60) || typeof operation.name !== "string") {
      throw new AppError("unavailable:provider", "Gemini setup did not finish in time; try again.");
    }
    await sleep(options.pollIntervalMs ?? 5_000, undefined, { signal: options.signal });
    operation = ensureOk(
      await call(config, accessToken, `/${operation.name}`, undefined, options.signal),
      "onboarding",
    );
  }
  const project = projectIdOf((operation.response as Json | undefined)?.cloudaicompanionProject) ?? userProject;
  if (!project) throw needsProject();
  return { project, tier: tierId, ...(tier.name && { tierName: tier.name }) };
}

function needsProject(): AppError {
  return new AppError(
    "unavailable:provider",
    "This Google account needs a Google Cloud project for Gemini Code Assist; the administrator can set GOOGLE_CLOUD_PROJECT.",
  );
}
