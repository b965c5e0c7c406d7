// The canonical, provider-neutral chat model: what Postgres stores and what every provider request
// is rendered from. Nothing here is specific to one provider's wire format. Opaque per-provider data
// (reasoning signatures, thought signatures, reasoning item ids, the provider's own tool-call id) is
// kept beside the part, tagged with the provider that produced it and its origin (which account,
// through which endpoint), and only ever sent back to that same provider, account and endpoint;
// rendering for anything else drops or maps it. Rows stored before origins were recorded have none.
import { z } from "zod";

export const providerIds = ["anthropic", "openai", "google", "openai-compatible"] as const;
export const providerIdSchema = z.enum(providerIds);
export type ProviderId = z.infer<typeof providerIdSchema>;

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);
export type { JsonValue };

/**
 * Who produced provider data: the provider account (its id, or "server" for the server-wide
 * configuration) and the endpoint family it was reached through ("openai-responses",
 * "chatgpt-codex", "gemini-api", "code-assist", …). Encrypted reasoning and signatures are only
 * valid for the account and endpoint that issued them.
 */
export const providerOriginSchema = z.object({ account: z.string().min(1), endpoint: z.string().min(1) });
export type ProviderOrigin = z.infer<typeof providerOriginSchema>;

/** Opaque data a provider attached to a part (the AI SDK's providerMetadata for that provider). */
export const providerDataSchema = z.object({
  provider: providerIdSchema,
  data: z.record(z.string(), jsonValueSchema),
  /** Absent on rows stored before origins were recorded. */
  origin: providerOriginSchema.optional(),
});
export type ProviderData = z.infer<typeof providerDataSchema>;

export const textPartSchema = z.object({
  type: z.literal("text"),
  text: z.string(),
  providerData: providerDataSchema.optional(),
});

export const reasoningPartSchema = z.object({
  type: z.literal("reasoning"),
  text: z.string(),
  providerData: providerDataSchema.optional(),
});

/** Canonical tool-call ids match ^[a-zA-Z0-9_-]+$ so every provider accepts them as they are. */
export const canonicalCallIdSchema = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);

export const toolCallPartSchema = z.object({
  type: z.literal("tool-call"),
  id: canonicalCallIdSchema,
  /** Canonical tool name, `server.tool` (e.g. `builtin.current_time`). */
  name: z.string().min(1),
  args: z.record(z.string(), jsonValueSchema),
  /** The id the provider gave this call, when it gave one; sent back only to that provider. */
  providerCallId: z
    .object({ provider: providerIdSchema, id: z.string(), origin: providerOriginSchema.optional() })
    .optional(),
  providerData: providerDataSchema.optional(),
});

export const toolResultPartSchema = z.object({
  type: z.literal("tool-result"),
  callId: canonicalCallIdSchema,
  name: z.string().min(1),
  output: jsonValueSchema,
  isError: z.boolean(),
  /** How long the call took, in ms (absent on results no call produced, e.g. a cancelled one). */
  durationMs: z.number().int().nonnegative().optional(),
});

export const userPartSchema = textPartSchema;
export const assistantPartSchema = z.discriminatedUnion("type", [
  textPartSchema,
  reasoningPartSchema,
  toolCallPartSchema,
]);
export const toolPartSchema = toolResultPartSchema;

export type TextPart = z.infer<typeof textPartSchema>;
export type ReasoningPart = z.infer<typeof reasoningPartSchema>;
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;
export type AssistantPart = z.infer<typeof assistantPartSchema>;

export type CanonicalMessage =
  | { id: string; role: "user"; parts: TextPart[] }
  | { id: string; role: "assistant"; parts: AssistantPart[] }
  | { id: string; role: "tool"; parts: ToolResultPart[] };

/** One tool as the model may see it: canonical identity, the name exposed to providers, its schema. */
export type ToolSpec = {
  canonicalName: string;
  exposedName: string;
  description: string;
  inputSchema: Record<string, JsonValue>;
};

/** An immutable view of the tools available to one request. */
export type ToolSnapshot = { revision: number; tools: ToolSpec[] };

/** What the renderer needs: the system prompt, the history in order, the tools. */
export type Transcript = { system?: string; messages: CanonicalMessage[] };

/** Canonical events decoded from one provider stream (one model request). */
export type StreamEvent =
  | { type: "text-delta"; text: string }
  | { type: "text-end"; providerData?: ProviderData }
  | { type: "reasoning-delta"; text: string }
  | { type: "reasoning-end"; providerData?: ProviderData }
  | {
      type: "tool-call";
      providerCallId: string;
      exposedName: string;
      args: Record<string, JsonValue>;
      providerData?: ProviderData;
    }
  | { type: "finish"; finishReason: string; usage: { inputTokens?: number; outputTokens?: number } }
  | { type: "error"; message: string };
