// The three subscription sign-in flows, what the admin switched on (PROVIDER_SUBSCRIPTIONS), and what
// the connect page tells a user before they start one. A flow that is not switched on is refused
// here, whichever way it is reached. Pure apart from reading the validated env passed in.
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";

export const subscriptionFlows = ["anthropic", "openai", "google"] as const;
export type SubscriptionFlow = (typeof subscriptionFlows)[number];

export type FlowEnv = Pick<
  Env,
  "PROVIDER_SUBSCRIPTIONS" | "ANTHROPIC_SUBSCRIPTION_MODELS" | "CHATGPT_MODELS" | "CODE_ASSIST_MODELS"
>;

/** How a user completes the flow: paste a code from the vendor's page, or enter a device code there. */
export type FlowKind = "code-paste" | "device-code";

export type FlowInfo = {
  flow: SubscriptionFlow;
  name: string;
  kind: FlowKind;
  /** The plain-language notice shown before the user starts; they agree to it by continuing. */
  consent: string;
};

const details: Record<SubscriptionFlow, { name: string; vendor: string; kind: FlowKind; cli: string }> = {
  anthropic: { name: "Claude Pro / Max", vendor: "Claude", kind: "code-paste", cli: "Claude Code" },
  openai: { name: "ChatGPT Plus / Pro", vendor: "ChatGPT", kind: "device-code", cli: "Codex CLI" },
  google: { name: "Gemini (Google account)", vendor: "Gemini", kind: "code-paste", cli: "Gemini CLI" },
};

/** The short vendor name used in labels and messages ("Claude", "ChatGPT", "Gemini"). */
export const vendorName = (flow: SubscriptionFlow) => details[flow].vendor;

function consentText(flow: SubscriptionFlow): string {
  const { vendor, cli } = details[flow];
  return (
    `This sign-in reuses the ${cli}'s own OAuth client registration, not one made for Patchbay. ` +
    `${vendor}'s terms may not allow a third-party app to use your personal subscription this way, ` +
    `and ${vendor} may refuse or limit it at any time. Your tokens are kept encrypted on this server ` +
    `and are never sent to your browser. Continue only if you accept that.`
  );
}

export function isFlowEnabled(env: Pick<Env, "PROVIDER_SUBSCRIPTIONS">, flow: SubscriptionFlow): boolean {
  return env.PROVIDER_SUBSCRIPTIONS.includes(flow);
}

/** Throws forbidden:provider unless the administrator switched the flow on. */
export function assertFlowEnabled(env: Pick<Env, "PROVIDER_SUBSCRIPTIONS">, flow: SubscriptionFlow): void {
  if (!isFlowEnabled(env, flow)) {
    throw new AppError(
      "forbidden:provider",
      `Signing in with a ${details[flow].name} subscription is switched off on this server (PROVIDER_SUBSCRIPTIONS).`,
    );
  }
}

/** The enabled flows in a fixed order, with their consent text. */
export function listFlows(env: Pick<Env, "PROVIDER_SUBSCRIPTIONS">): FlowInfo[] {
  return subscriptionFlows
    .filter((flow) => isFlowEnabled(env, flow))
    .map((flow) => ({ flow, name: details[flow].name, kind: details[flow].kind, consent: consentText(flow) }));
}

export function modelsOf(env: FlowEnv, flow: SubscriptionFlow): string[] {
  const models = {
    anthropic: env.ANTHROPIC_SUBSCRIPTION_MODELS,
    openai: env.CHATGPT_MODELS,
    google: env.CODE_ASSIST_MODELS,
  };
  return [...models[flow]];
}

/** The error a turn (or a call) fails with once an account's sign-in is dead. */
export function reconnectNeededError(flow: SubscriptionFlow): AppError {
  const vendor = vendorName(flow);
  return new AppError(
    "forbidden:provider",
    `Your ${vendor} sign-in has expired or was revoked: reconnect your ${vendor} account in Settings → Providers.`,
  );
}

export function isSubscriptionFlow(value: string): value is SubscriptionFlow {
  return (subscriptionFlows as readonly string[]).includes(value);
}
