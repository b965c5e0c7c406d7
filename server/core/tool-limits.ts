// What each provider accepts in one request, so Patchbay never sends a request the provider would
// refuse, and can tell the user beforehand. The numbers are the providers' documented limits (sources
// in docs/provider-limits.md); where a provider documents none, the row says so (null) and only the
// limits it does document apply. Tool names need no check here: every exposed name is already at most
// 60 characters of [a-zA-Z0-9_-] (tool-names.ts), inside every provider's 64. Pure, no I/O.
import type { ProviderId } from "./canonical.ts";

export type ProviderToolLimits = {
  /** How the provider is named to users. */
  label: string;
  /** Most tools (function declarations) in one request. */
  maxTools: number | null;
  /** Largest request body, in bytes. */
  maxRequestBytes: number | null;
};

const MB = 1024 * 1024;

export const providerToolLimits: Record<ProviderId, ProviderToolLimits> = {
  anthropic: { label: "Anthropic", maxTools: null, maxRequestBytes: 32 * MB },
  openai: { label: "OpenAI", maxTools: 128, maxRequestBytes: null },
  google: { label: "Gemini", maxTools: 128, maxRequestBytes: 20 * MB },
  // OpenAI's Chat Completions contract, which these servers follow; their own limits vary.
  "openai-compatible": { label: "The OpenAI-compatible server", maxTools: 128, maxRequestBytes: null },
};

export type ToolLoad = { toolCount: number; requestBytes: number };

/** Why `provider` would refuse a request of this size, in words for the user; null when it would not. */
export function toolLimitProblem(provider: ProviderId, load: ToolLoad): string | null {
  const { label, maxTools, maxRequestBytes } = providerToolLimits[provider];
  if (maxTools !== null && load.toolCount > maxTools) {
    return (
      `This chat offers the model ${load.toolCount.toLocaleString("en-US")} tools; ${label} accepts at most ` +
      `${maxTools} in one request. Switch connectors or tools off in the Tools panel, or pick a persona ` +
      `with fewer tools, then send again.`
    );
  }
  if (maxRequestBytes !== null && load.requestBytes > maxRequestBytes) {
    return (
      `This chat's request would be ${formatMegabytes(load.requestBytes)}; ${label} accepts at most ` +
      `${formatMegabytes(maxRequestBytes)}. Switch connectors or tools with long descriptions or schemas ` +
      `off in the Tools panel, or start a new chat, then send again.`
    );
  }
  return null;
}

/** The size of a request body as sent: its JSON in UTF-8. */
export function requestBytes(body: unknown): number {
  return Buffer.byteLength(JSON.stringify(body) ?? "", "utf8");
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}
