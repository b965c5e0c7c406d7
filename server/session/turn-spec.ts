// What one turn runs on: its spec (the turn, its session and history, the provider, model and
// account it was started with) and its dependencies (database, tool source, model resolver, limits).
// Shared by the turn runner and the writers it hands them to. Types only.
import type { ToolSource } from "../core/tool-source.ts";
import type { Db } from "../db/client.ts";
import type { CanonicalMessage, ProviderId } from "../core/canonical.ts";
import type { ToolCallLimits } from "../policy/limits.ts";
import type { ModelResolver } from "../providers/model-resolver.ts";
import type { OverlayListDto } from "./overlays.ts";
import type { SubAgentRunner } from "./tool-round.ts";

export type TurnSpec = {
  id: string;
  sessionId: string;
  historySeq: number;
  provider: ProviderId;
  model: string;
  /** The user's provider account; null: the server-wide configuration. */
  accountId: string | null;
  /** What the statement that started the turn read for its first model request (else it reads them). */
  opening?: TurnOpening;
};

/**
 * The first request's inputs, read with the turn's claim (turn-sql.ts): one snapshot, no further
 * reads; and the turn's first reserved event ids (event-ids.ts).
 */
export type TurnOpening = {
  history: CanonicalMessage[];
  overlays: OverlayListDto;
  toolsRevision: number;
  eventIds: string[];
};

export type TurnDeps = {
  db: Db;
  tools: ToolSource;
  resolveModel: ModelResolver;
  maxSteps: number;
  toolTimeoutMs: number;
  limits: ToolCallLimits;
  system?: string;
  flushIntervalMs?: number;
  /** Runs `persona.<slug>` calls as nested sub-agent runs (sub-agent-run.ts). */
  subAgents?: SubAgentRunner;
};
