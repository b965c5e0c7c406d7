// The session manager: starts, cancels and restarts turns, from any app instance. A turn runs in
// the instance that started it, under a lease it renews; the turn's row and the session's active
// slot in Postgres are the shared truth. Cancel/restart write the outcome in the database and
// notify; the owning instance aborts the stream and any tool call on the notification (or, at the
// latest, on its next lease renewal). A turn whose instance died is marked `interrupted` by whichever
// instance sweeps next, partial content kept: within about a second when instances hold instance
// locks (instance-lock.ts; checked every `livenessCheckMs`), else once its lease lapses. A send that
// finds its chat held by such a dead turn sweeps it first and goes on.
//
// A second send while a turn runs is refused with `conflict:turn` (it does not queue): the user
// stops the running turn or waits for it; regenerate (restart) and apply now (applyNow) swap turns
// atomically (restart.ts); apply now keeps the old turn's complete tool rounds, regenerate redoes all.
// The turns running here live in local-turns.ts; sweeping and control notifications in turn-sweeper.ts.
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ModelResolver } from "../providers/model-resolver.ts";
import type { ProviderId } from "../core/canonical.ts";
import { DEFAULT_SESSION_TITLE, getChatSession } from "../db/chat-sessions.ts";
import { findEditableMessage, replaceLastUserMessage } from "./edit-resend.ts";
import type { UsageLimits } from "../policy/usage-limits.ts";
import { authorizeChoice } from "./server-key-usage.ts";
import {
  normalizeChoice,
  ownedSessionModel,
  personaPrompt,
  sessionModel,
  storedChoice,
  type ModelChoice,
  type ServerModels,
  type TurnModel,
} from "./turn-models.ts";
import { appendEvents, type EventInput } from "./event-log.ts";
import type { InstanceLock } from "./instance-lock.ts";
import { CHANNELS, notify } from "../db/notifier.ts";
import { supersedeForRestart } from "./restart.ts";
import { LocalTurns } from "./local-turns.ts";
import { type TurnSpec } from "./turn-spec.ts";
import { TurnSweeper } from "./turn-sweeper.ts";
import { finishTurn } from "./turn-end.ts";
import { ownedTurn, ownedTurnWithModel } from "./owned-turn.ts";
import { startTurnRows } from "./turn-sql.ts";
import { createSubAgentRunner } from "./sub-agent-run.ts";
import type { ToolSource } from "../core/tool-source.ts";

export type { ModelChoice } from "./turn-models.ts";

export type ManagerOptions = {
  db: Db;
  tools: ToolSource;
  /** The language model for one request, resolved right before it (tokens refreshed as needed). */
  resolveModel: ModelResolver;
  defaultModel: () => ModelChoice | null;
  /** The models the server's own configuration offers per provider; a choice outside them is refused. */
  serverModels: ServerModels;
  /** Per-user limits on the server's keys (default: none). */
  usageLimits?: UsageLimits;
  maxSteps: number;
  toolTimeoutMs: number;
  /** Most tool calls of one model response that run; the rest get an error result. */
  toolCallsPerResponse: number;
  /** Most tool calls that run per chat in any minute; the rest get an error result. */
  toolCallsPerMinute: number;
  instanceId?: string;
  /**
   * This instance's lock (instance-lock.ts, taken for `instanceId`). With it, turns of instances whose
   * lock is free are swept every `livenessCheckMs` (default 1 s); without it only lapsed leases are.
   * All instances on one database must hold one, or none.
   */
  instanceLock?: InstanceLock;
  livenessCheckMs?: number;
  leaseMs?: number;
  /** Batching interval of streamed deltas after the first (default 16 ms). */
  flushIntervalMs?: number;
  /** The system prompt of chats without a persona. */
  system?: string;
};

const TITLE_LENGTH = 60;

export class SessionManager {
  readonly instanceId: string;
  readonly leaseMs: number;
  private readonly turns = new LocalTurns();
  private readonly sweeper: TurnSweeper;

  constructor(private readonly options: ManagerOptions) {
    this.instanceId = options.instanceLock?.instanceId ?? options.instanceId ?? randomUUID();
    this.leaseMs = options.leaseMs ?? 15_000;
    const { db, instanceLock, livenessCheckMs } = options;
    this.sweeper = new TurnSweeper(
      { db, instanceId: this.instanceId, leaseMs: this.leaseMs, instanceLock, livenessCheckMs },
      this.turns,
    );
  }

  /** Listens for cancel/restart from other instances and sweeps lapsed leases (turn-sweeper.ts). Idempotent. */
  start(): void {
    this.sweeper.start();
  }

  /** Stops background work and aborts this instance's turns (they are left for the sweep). */
  async stop(): Promise<void> {
    this.sweeper.stop();
    await this.turns.abortAll();
  }

  private choiceRules() {
    const { serverModels, usageLimits = { requestsPerMinute: null, tokensPerDay: null } } = this.options;
    return { serverModels, usageLimits };
  }

  isRunningHere(turnId: string): boolean {
    return this.turns.has(turnId);
  }

  /**
   * Persists the user message and the turn (one statement: see turn-sql.ts), then runs the turn
   * in the background. With an explicit model choice nothing is read first.
   */
  async startTurn(ownerId: string, sessionId: string, text: string, choice?: ModelChoice): Promise<{ turnId: string }> {
    const { db } = this.options;
    const stored = choice ? null : await ownedSessionModel(db, ownerId, sessionId);
    const model = normalizeChoice(choice ?? stored ?? this.options.defaultModel());
    if (!model)
      throw new AppError(
        "bad_request:provider",
        "No model provider is configured. Add an API key or endpoint in Settings → Providers first.",
      );
    await authorizeChoice(db, ownerId, model, this.choiceRules());
    const turnId = randomUUID();
    const claim = () =>
      startTurnRows(db, {
        id: turnId,
        sessionId,
        ownerId,
        ...model,
        text,
        title: text.trim().slice(0, TITLE_LENGTH) || DEFAULT_SESSION_TITLE,
        leaseOwner: this.instanceId,
        leaseExpiresAt: this.leaseExpiry(),
      });
    // A chat still held by a turn whose instance died is swept here, so the send goes on.
    const started = (await claim()) ?? ((await this.sweeper.sweepDeadTurns(sessionId)) ? await claim() : null);
    if (!started) {
      await getChatSession(db, ownerId, sessionId); // not_found:session when it is not the owner's
      throw new AppError("conflict:turn");
    }
    const { historySeq, opening } = started;
    await this.run({ id: turnId, sessionId, historySeq, ...model, opening }, started.systemPrompt);
    return { turnId };
  }

  /** Stops a streaming turn from any instance; its partial output stays in the history. */
  async cancel(ownerId: string, turnId: string): Promise<void> {
    const turn = await ownedTurn(this.options.db, ownerId, turnId);
    if (turn.status !== "streaming") return;
    await this.options.db.turn.updateMany({
      where: { id: turnId, status: "streaming" },
      data: { cancelRequested: "cancelled" },
    });
    await finishTurn(this.options.db, turn, { status: "cancelled" });
    await notify(this.options.db, CHANNELS.turnControl, turnId);
  }

  /**
   * Regenerate: supersedes a turn and starts a new one on the same history (the same user message
   * and nothing after it), a full redo. The superseded turn's output is kept for display but never
   * sent to a model; its calls that never returned are marked cancelled (restart.ts).
   */
  async restart(ownerId: string, turnId: string, choice?: ModelChoice): Promise<{ turnId: string }> {
    return this.supersede(ownerId, turnId, choice, false);
  }

  /**
   * Apply now: supersedes the turn like restart, on the latest tool revision, but the new turn keeps
   * the old one's complete tool rounds (copied, see kept-rounds.ts) and continues from there, so
   * finished tool work is not done again; a call still running or awaiting approval is cancelled.
   */
  async applyNow(ownerId: string, turnId: string): Promise<{ turnId: string }> {
    return this.supersede(ownerId, turnId, undefined, true);
  }

  private async supersede(
    ownerId: string,
    turnId: string,
    choice: ModelChoice | undefined,
    keepFinishedRounds: boolean,
  ): Promise<{ turnId: string }> {
    const { session, ...old } = await ownedTurnWithModel(this.options.db, ownerId, turnId);
    const model: TurnModel = normalizeChoice(choice ?? storedChoice(session)) ?? {
      provider: old.provider as ProviderId,
      model: old.model,
      accountId: old.providerAccountId,
    };
    await authorizeChoice(this.options.db, ownerId, model, this.choiceRules());
    const newId = randomUUID();
    const newTurn = this.turnData(newId, old.sessionId, old.userMessageId, old.historySeq, model);
    const settled = await supersedeForRestart(this.options.db, { old, newTurn, keepFinishedRounds });
    const spec = { id: newId, sessionId: old.sessionId, historySeq: old.historySeq, ...model };
    // The old turn is told to stop (at once here, by NOTIFY elsewhere) while the new one starts.
    await Promise.all([
      notify(this.options.db, CHANNELS.turnControl, old.id),
      this.launch({ ...spec, userMessageId: old.userMessageId }, old.id, session.personaPrompt, {
        before: settled.oldEvents,
        more: settled.newEvents,
      }),
    ]);
    return { turnId: newId };
  }

  /**
   * Replaces the chat's last user message with `text` and answers it afresh: the old message and
   * its turns stay stored but leave the history a model is sent (see edit-resend.ts).
   */
  async editAndResend(
    ownerId: string,
    messageId: string,
    text: string,
    choice?: ModelChoice,
  ): Promise<{ turnId: string }> {
    const target = await findEditableMessage(this.options.db, ownerId, messageId);
    const model = normalizeChoice(
      choice ?? (await sessionModel(this.options.db, target.sessionId)) ?? this.options.defaultModel(),
    );
    if (!model) throw new AppError("bad_request:provider", "No model provider is configured.");
    await authorizeChoice(this.options.db, ownerId, model, this.choiceRules());
    const turnId = randomUUID();
    const replaced = await replaceLastUserMessage(this.options.db, ownerId, target, text, {
      turnId,
      model,
      turnData: (userMessageId, historySeq) =>
        this.turnData(turnId, target.sessionId, userMessageId, historySeq, model),
    });
    const { userMessageId, historySeq } = replaced;
    const spec = { id: turnId, sessionId: target.sessionId, historySeq, userMessageId, ...model };
    await this.launch(spec, null, personaPrompt(this.options.db, target.sessionId));
    return { turnId };
  }

  private turnData(id: string, sessionId: string, userMessageId: string, historySeq: number, model: TurnModel) {
    return {
      id,
      sessionId,
      userMessageId,
      historySeq,
      provider: model.provider,
      model: model.model,
      providerAccountId: model.accountId,
      leaseOwner: this.instanceId,
      leaseExpiresAt: this.leaseExpiry(),
    };
  }

  private leaseExpiry(): Date {
    return new Date(Date.now() + this.leaseMs);
  }

  /**
   * Announces a turn stored by restart / edit-and-resend (after `before`: the replaced turn's last
   * events; then `more`: its kept copies), in one statement, then runs it with the persona prompt.
   */
  private async launch(
    spec: TurnSpec & { userMessageId: string },
    restartOf: string | null,
    personaPrompt: string | null | Promise<string | null>,
    { before = [], more = [] }: { before?: EventInput[]; more?: EventInput[] } = {},
  ): Promise<void> {
    const { provider, model, userMessageId } = spec;
    const started = { turnId: spec.id, provider, model, userMessageId, restartOf };
    const [persona] = await Promise.all([
      personaPrompt,
      appendEvents(this.options.db, {
        sessionId: spec.sessionId,
        turnId: spec.id,
        events: [...before, { type: "turn.started", data: started }, ...more],
      }),
    ]);
    await this.run(spec, persona);
  }

  /** Runs a stored, announced turn in the background (local-turns.ts); the chat's persona prompt, else the default. */
  private run(spec: TurnSpec, personaPrompt: string | null): Promise<void> {
    const shared = {
      db: this.options.db,
      tools: this.options.tools,
      resolveModel: this.options.resolveModel,
      toolTimeoutMs: this.options.toolTimeoutMs,
      limits: { perResponse: this.options.toolCallsPerResponse, perMinute: this.options.toolCallsPerMinute },
    };
    return this.turns.run(spec, {
      ...shared,
      maxSteps: this.options.maxSteps,
      system: personaPrompt ?? this.options.system,
      flushIntervalMs: this.options.flushIntervalMs,
      subAgents: createSubAgentRunner(spec, { ...shared, serverModels: this.options.serverModels }),
    });
  }
}
