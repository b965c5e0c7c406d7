// The key each AI SDK provider uses in `providerOptions` (what we send) and `providerMetadata` (what it
// streams back). Canonical `providerData.data` is exactly the object under this key, so rendering puts
// it back under the same key for the same provider and nowhere else. The OpenAI-compatible provider is
// created with the fixed name `compatible` (model-factory.ts), so its key never depends on the
// configured display name; it is deliberately not `openaiCompatible`, which that SDK would spread
// verbatim into the wire message.
import type { ProviderId } from "../core/canonical.ts";

export const OPENAI_COMPATIBLE_SDK_NAME = "compatible";

const sdkKeys: Record<ProviderId, string> = {
  anthropic: "anthropic",
  openai: "openai",
  google: "google",
  "openai-compatible": OPENAI_COMPATIBLE_SDK_NAME,
};

/** The providerOptions / providerMetadata key of a provider. */
export function sdkProviderKey(provider: ProviderId): string {
  return sdkKeys[provider];
}
