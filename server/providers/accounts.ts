// A user's provider accounts: their own API keys (Anthropic, OpenAI, Google), OpenAI-compatible
// endpoints (Ollama, llama.cpp server, vLLM, LM Studio) and personal subscriptions signed in with
// OAuth (server/providers/subscriptions). Invariants:
// - Every read and write is scoped to the owner; another user's account id is "not found".
// - Credentials live sealed (AES-256-GCM, server/crypto/secrets.ts) in `secrets`; DTOs never carry
//   them, only whether a key is set. `openCredentials` is for the code that calls the provider.
// - A compatible endpoint's models come from its `/models` list when it is added (and on refresh);
//   its URL passes the SSRF guard unless PROVIDER_ALLOW_PRIVATE_URLS (on by default: a self-hoster's
//   Ollama usually runs on the same machine).
import { z } from "zod";

import { openSecret, sealSecret } from "../crypto/secrets.ts";
import type { Db } from "../db/client.ts";
import { env } from "../env.ts";
import { AppError } from "../errors.ts";
import type { Prisma, ProviderAccount } from "../generated/prisma/client.ts";
import { assertPublicUrl, type LookupAll } from "../core/url-guard.ts";
import type { ProviderId } from "../core/canonical.ts";

export type AccountCredentials = {
  apiKey?: string;
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
};

export type ProviderAccountKind = ProviderAccount["kind"];

/** What the owner's browser may see of an account. */
export type ProviderAccountDto = {
  id: string;
  provider: ProviderId;
  kind: ProviderAccountKind;
  label: string;
  identity: string | null;
  plan: string | null;
  baseUrl: string | null;
  models: string[];
  nativeTools: boolean;
  hasKey: boolean;
  status: ProviderAccount["status"];
  lastError: string | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
};

const label = z.string().trim().min(1, { error: "Give the account a name" }).max(80);
const apiKey = z.string().trim().min(8, { error: "That does not look like an API key" }).max(500);

export const addApiKeyInputSchema = z.object({
  provider: z.enum(["anthropic", "openai", "google"]),
  label: label.optional(),
  apiKey,
});

export const addCompatibleInputSchema = z.object({
  label,
  baseUrl: z
    .url({ error: "Enter the endpoint's base URL, e.g. http://127.0.0.1:11434/v1" })
    .refine((url) => /^https?:\/\//.test(url), { error: "The URL must start with http:// or https://" }),
  apiKey: z.string().trim().max(500).optional(),
  nativeTools: z.boolean().default(true),
});

export const updateAccountInputSchema = z.object({
  label: label.optional(),
  apiKey: apiKey.optional(),
});

export type AddApiKeyInput = z.input<typeof addApiKeyInputSchema>;
export type AddCompatibleInput = z.input<typeof addCompatibleInputSchema>;

const providerNames: Record<ProviderId, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  google: "Google Gemini",
  "openai-compatible": "OpenAI-compatible",
};

/** The models a user's own API key offers: the same list the server offers for that provider. */
function apiKeyModels(provider: "anthropic" | "openai" | "google"): string[] {
  const lists = { anthropic: env.ANTHROPIC_MODELS, openai: env.OPENAI_MODELS, google: env.GOOGLE_MODELS };
  return [...lists[provider]];
}

export function toAccountDto(row: ProviderAccount): ProviderAccountDto {
  return {
    id: row.id,
    provider: row.provider as ProviderId,
    kind: row.kind,
    label: row.label,
    identity: row.identity,
    plan: row.plan,
    baseUrl: row.baseUrl,
    models: row.models,
    nativeTools: row.nativeTools,
    hasKey: row.kind !== "compatible" || row.secrets !== "",
    status: row.status,
    lastError: row.lastError,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
  };
}

export async function listAccounts(db: Db, ownerId: string): Promise<ProviderAccountDto[]> {
  const rows = await db.providerAccount.findMany({ where: { ownerId }, orderBy: { createdAt: "asc" } });
  return rows.map(toAccountDto);
}

/** The owner's account row (with sealed secrets): server code only. */
export async function getOwnedAccount(db: Db, ownerId: string, id: string): Promise<ProviderAccount> {
  const row = await db.providerAccount.findFirst({ where: { id, ownerId } });
  if (!row) throw new AppError("not_found:provider", "That provider account was not found.");
  return row;
}

async function sealCredentials(credentials: AccountCredentials): Promise<string> {
  const present = Object.fromEntries(Object.entries(credentials).filter(([, value]) => value));
  return Object.keys(present).length === 0 ? "" : sealSecret(JSON.stringify(present));
}

/** The account's credentials in the clear, for the code that calls the provider. */
export async function openCredentials(row: Pick<ProviderAccount, "secrets">): Promise<AccountCredentials> {
  if (!row.secrets) return {};
  return JSON.parse(await openSecret(row.secrets)) as AccountCredentials;
}

export type CreateAccountInput = {
  provider: ProviderId;
  kind: ProviderAccountKind;
  label: string;
  credentials: AccountCredentials;
  models: string[];
  identity?: string | null;
  plan?: string | null;
  baseUrl?: string | null;
  nativeTools?: boolean;
  metadata?: Prisma.InputJsonValue;
  expiresAt?: Date | null;
};

/** Stores a new account with its credentials sealed. */
export async function createAccount(db: Db, ownerId: string, input: CreateAccountInput): Promise<ProviderAccountDto> {
  const row = await db.providerAccount.create({
    data: {
      ownerId,
      provider: input.provider,
      kind: input.kind,
      label: input.label,
      identity: input.identity ?? null,
      plan: input.plan ?? null,
      baseUrl: input.baseUrl ?? null,
      models: input.models,
      nativeTools: input.nativeTools ?? true,
      secrets: await sealCredentials(input.credentials),
      metadata: input.metadata ?? {},
      expiresAt: input.expiresAt ?? null,
    },
  });
  return toAccountDto(row);
}

/** Replaces the account's credentials (a refresh, a new key) and marks it usable again. */
export async function updateCredentials(
  db: Db,
  id: string,
  credentials: AccountCredentials,
  expiresAt?: Date | null,
): Promise<void> {
  await db.providerAccount.update({
    where: { id },
    data: {
      secrets: await sealCredentials(credentials),
      ...(expiresAt !== undefined && { expiresAt }),
      status: "active",
      lastError: null,
    },
  });
}

/** A refresh failed for good: the user must connect again. The message is shown on the account. */
export async function markReconnectNeeded(db: Db, id: string, message: string): Promise<void> {
  await db.providerAccount.update({ where: { id }, data: { status: "reconnect_needed", lastError: message } });
}

export async function addApiKeyAccount(db: Db, ownerId: string, input: AddApiKeyInput): Promise<ProviderAccountDto> {
  const parsed = addApiKeyInputSchema.parse(input);
  return createAccount(db, ownerId, {
    provider: parsed.provider,
    kind: "api_key",
    label: parsed.label ?? `${providerNames[parsed.provider]} key`,
    credentials: { apiKey: parsed.apiKey },
    models: apiKeyModels(parsed.provider),
  });
}

export type EndpointOptions = { allowPrivateUrls?: boolean; lookup?: LookupAll; fetch?: typeof globalThis.fetch };

/** The model ids an OpenAI-compatible endpoint lists at `GET <baseUrl>/models`. */
export async function fetchCompatibleModels(
  baseUrl: string,
  key: string | undefined,
  options: EndpointOptions = {},
): Promise<string[]> {
  await assertPublicUrl(baseUrl, {
    allowPrivate: options.allowPrivateUrls ?? env.PROVIDER_ALLOW_PRIVATE_URLS,
    lookup: options.lookup,
  });
  const url = `${baseUrl.replace(/\/+$/, "")}/models`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers: { accept: "application/json", ...(key && { authorization: `Bearer ${key}` }) },
      signal: AbortSignal.timeout(10_000),
      redirect: "error",
    });
  } catch {
    throw new AppError("bad_request:provider", `Could not reach ${url}. Is the server running?`);
  }
  if (response.status === 401 || response.status === 403)
    throw new AppError("bad_request:provider", `${url} refused the key (HTTP ${response.status}).`);
  if (!response.ok) throw new AppError("bad_request:provider", `${url} answered HTTP ${response.status}.`);
  const body = (await response.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
  const ids = (body?.data ?? []).map((model) => model.id).filter((id): id is string => typeof id === "string");
  if (ids.length === 0) throw new AppError("bad_request:provider", `${url} lists no models.`);
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

export async function addCompatibleAccount(
  db: Db,
  ownerId: string,
  input: AddCompatibleInput,
  options: EndpointOptions = {},
): Promise<ProviderAccountDto> {
  const parsed = addCompatibleInputSchema.parse(input);
  const key = parsed.apiKey || undefined;
  const models = await fetchCompatibleModels(parsed.baseUrl, key, options);
  return createAccount(db, ownerId, {
    provider: "openai-compatible",
    kind: "compatible",
    label: parsed.label,
    baseUrl: parsed.baseUrl.replace(/\/+$/, ""),
    credentials: { apiKey: key },
    models,
    nativeTools: parsed.nativeTools,
  });
}

/** Re-reads a compatible endpoint's model list. */
export async function refreshCompatibleModels(
  db: Db,
  ownerId: string,
  id: string,
  options: EndpointOptions = {},
): Promise<ProviderAccountDto> {
  const row = await getOwnedAccount(db, ownerId, id);
  if (row.kind !== "compatible" || !row.baseUrl)
    throw new AppError("bad_request:provider", "Only OpenAI-compatible endpoints list their models.");
  const models = await fetchCompatibleModels(row.baseUrl, (await openCredentials(row)).apiKey, options);
  return toAccountDto(await db.providerAccount.update({ where: { id }, data: { models, lastError: null } }));
}

/** Renames an account or replaces its API key (not a subscription's tokens: reconnect for that). */
export async function updateAccount(
  db: Db,
  ownerId: string,
  id: string,
  patch: z.input<typeof updateAccountInputSchema>,
): Promise<ProviderAccountDto> {
  const parsed = updateAccountInputSchema.parse(patch);
  const row = await getOwnedAccount(db, ownerId, id);
  if (parsed.apiKey && row.kind === "subscription")
    throw new AppError("bad_request:provider", "A subscription has no API key; reconnect it instead.");
  const secrets = parsed.apiKey ? await sealCredentials({ apiKey: parsed.apiKey }) : undefined;
  const updated = await db.providerAccount.update({
    where: { id },
    data: {
      ...(parsed.label && { label: parsed.label }),
      ...(secrets !== undefined && { secrets, status: "active" as const, lastError: null }),
    },
  });
  return toAccountDto(updated);
}

/** Forgets the account and its credentials; chats that used it fall back to the server default. */
export async function removeAccount(db: Db, ownerId: string, id: string): Promise<void> {
  const removed = await db.providerAccount.deleteMany({ where: { id, ownerId } });
  if (removed.count === 0) throw new AppError("not_found:provider", "That provider account was not found.");
}
