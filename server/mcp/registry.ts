// The session's revisioned tool registry. Every change — a connector bound, switched on or off, a
// tool toggled, a connector's tools/list_changed, a connector going unhealthy — bumps the session's
// `toolsRevision` atomically in Postgres and stores the immutable snapshot of that revision: the
// tools with the name each provider is shown and the reverse map back to connector + tool. Turns read
// the latest snapshot right before every model request, so a change applies from the next request.
// Tool policy is applied here too: `deny` tools and tools outside the chat persona's allowlist are
// not in the snapshot at all, and every tool that is carries its policy (`allow` or `ask`).
// As a ToolSource it also runs calls, resolving them through the snapshot to exactly one tool.
import type { Db } from "../db.ts";
import { AppError } from "../errors.ts";
import { effectivePolicy, isAllowedByPersona, type ExposedPolicy, type ToolPolicy } from "../policy/rules.ts";
import { exposeToolNames, ToolNameCollisionError } from "../providers/tool-names.ts";
import { builtinTools, type BuiltinTool } from "../session/builtin-tools.ts";
import type { JsonValue, ToolSpec } from "../session/canonical.ts";
import { appendEvent } from "../session/events.ts";
import { ToolError, type ToolCallRequest, type ToolOutcome, type ToolSource } from "../session/tool-runner.ts";
import type { ConnectionPool, McpTool } from "./connections.ts";
import { callMcpTool } from "./tool-call.ts";
import type { ConnectorConfig } from "./transports.ts";

export const BUILTIN_CONNECTOR = "builtin";
const SNAPSHOT_CACHE_LIMIT = 1_000;
const cacheKey = (sessionId: string, revision: number) => `${sessionId}:${revision}`;

/** A tool of a snapshot: what the model sees, where it lives, and whether its calls need approval. */
export type RegistryTool = ToolSpec & { connectorId: string; toolName: string; policy: ExposedPolicy };
/** Structurally a ToolSnapshot, with where each tool lives. */
export type RegistrySnapshot = { revision: number; tools: RegistryTool[] };

export type ResolvedConnector = { id: string; name: string; config: ConnectorConfig };

export type RegistryOptions = {
  db: Db;
  pool: ConnectionPool;
  resolveConnector: (connectorId: string) => Promise<ResolvedConnector | null>;
  builtins?: readonly BuiltinTool[];
  toolTimeoutMs: number;
  maxOutputChars: number;
  listTimeoutMs?: number;
};

type Binding = {
  connectorId: string;
  enabled: boolean;
  disabledTools: string[];
  policy: ToolPolicy;
  toolPolicies: unknown;
};
type ToolEntry = Omit<RegistryTool, "exposedName" | "policy"> & { policy: ToolPolicy };

export class McpRegistry implements ToolSource {
  private readonly builtins: readonly BuiltinTool[];
  private readonly rebuilds = new Map<string, Promise<number>>();
  private readonly cache = new Map<string, RegistrySnapshot>();

  constructor(private readonly options: RegistryOptions) {
    this.builtins = options.builtins ?? builtinTools;
  }

  /** The latest snapshot; the first call for a session builds revision 1. */
  async snapshot(sessionId: string): Promise<RegistrySnapshot> {
    const { db } = this.options;
    const session = await db.chatSession.findUnique({ where: { id: sessionId }, select: { toolsRevision: true } });
    if (!session) throw new ToolError("unknown_tool", "This chat no longer exists.");
    if (session.toolsRevision === 0) {
      await this.rebuild(sessionId, "initial");
      return this.snapshot(sessionId);
    }
    const cached = this.cache.get(cacheKey(sessionId, session.toolsRevision));
    if (cached) return cached;
    const row = await db.toolSnapshot.findUniqueOrThrow({
      where: { sessionId_revision: { sessionId, revision: session.toolsRevision } },
    });
    return this.remember(sessionId, { revision: row.revision, tools: row.tools as RegistryTool[] });
  }

  /** Revisions are immutable, so a snapshot read once (or just built) is kept in memory. */
  private remember(sessionId: string, snapshot: RegistrySnapshot): RegistrySnapshot {
    if (this.cache.size >= SNAPSHOT_CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey(sessionId, snapshot.revision), snapshot);
    return snapshot;
  }

  async call(sessionId: string, request: ToolCallRequest, signal: AbortSignal): Promise<ToolOutcome> {
    const snapshot = await this.snapshot(sessionId);
    const tool = snapshot.tools.find((candidate) => candidate.canonicalName === request.canonicalName);
    if (!tool) throw new ToolError("unknown_tool", `The tool ${request.canonicalName} is not available in this chat.`);
    if (tool.connectorId === BUILTIN_CONNECTOR) return this.callBuiltin(tool, request.args, signal);
    const connector = await this.options.resolveConnector(tool.connectorId);
    if (!connector) throw new ToolError("unknown_tool", `The connector of ${tool.canonicalName} was removed.`);
    return callMcpTool(
      this.options.pool,
      connector.id,
      connector.config,
      { name: tool.toolName, description: tool.description, inputSchema: tool.inputSchema },
      request.args,
      {
        signal,
        timeoutMs: this.options.toolTimeoutMs,
        maxOutputChars: this.options.maxOutputChars,
        onProgress: request.onProgress,
      },
    );
  }

  /**
   * Builds and stores the next revision for a session. Rebuilds of one session are serialised in
   * this process; across processes the session row lock orders them, and each reads the bindings
   * under that lock, so the latest revision always reflects the latest bindings.
   */
  rebuild(sessionId: string, reason: string): Promise<number> {
    const previous = this.rebuilds.get(sessionId) ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => this.buildRevision(sessionId, reason));
    this.rebuilds.set(sessionId, next);
    return next.finally(() => {
      if (this.rebuilds.get(sessionId) === next) this.rebuilds.delete(sessionId);
    });
  }

  /** Rebuilds every session that has this connector switched on (list_changed, health changes). */
  async rebuildForConnector(connectorId: string, reason: string): Promise<void> {
    const bindings = await this.options.db.sessionConnector.findMany({
      where: { connectorId, enabled: true },
      select: { sessionId: true },
    });
    await Promise.all(bindings.map((binding) => this.rebuild(binding.sessionId, reason).catch(() => undefined)));
  }

  /** Rebuilds several sessions (e.g. every chat using a persona whose allowlist changed). */
  async rebuildSessions(sessionIds: string[], reason: string): Promise<void> {
    await Promise.all(sessionIds.map((sessionId) => this.rebuild(sessionId, reason).catch(() => undefined)));
  }

  private async callBuiltin(tool: RegistryTool, args: Record<string, JsonValue>, signal: AbortSignal) {
    const builtin = this.builtins.find((candidate) => candidate.canonicalName === tool.canonicalName);
    if (!builtin) throw new ToolError("unknown_tool", `There is no tool named ${tool.canonicalName}.`);
    return { output: await builtin.run(args, signal), isError: false };
  }

  private async listConnectorTools(bindings: Binding[]): Promise<Map<string, { name: string; tools: McpTool[] }>> {
    const lists = new Map<string, { name: string; tools: McpTool[] }>();
    await Promise.all(
      bindings
        .filter((binding) => binding.enabled)
        .map(async (binding) => {
          const connector = await this.options.resolveConnector(binding.connectorId).catch((error: unknown) => {
            console.warn(`[patchbay] connector ${binding.connectorId} cannot be used:`, (error as Error).message);
            return null;
          });
          if (!connector) return; // removed, or its secrets unreadable: no tools this revision
          const signal = AbortSignal.timeout(this.options.listTimeoutMs ?? 15_000);
          const tools = await this.options.pool.listTools(connector.id, connector.config, signal).catch(() => null);
          if (tools) lists.set(connector.id, { name: connector.name, tools }); // unhealthy: no tools this revision
        }),
    );
    return lists;
  }

  /** The snapshot's tools: built-ins and switched-on tools, minus denied ones and those the persona leaves out. */
  private composeTools(
    bindings: Binding[],
    lists: Map<string, { name: string; tools: McpTool[] }>,
    allowlist: string[] | null,
  ): RegistryTool[] {
    const candidates: ToolEntry[] = this.builtins.map((tool) => ({
      canonicalName: tool.canonicalName,
      description: tool.description,
      inputSchema: tool.inputSchema,
      connectorId: BUILTIN_CONNECTOR,
      toolName: tool.canonicalName.slice(BUILTIN_CONNECTOR.length + 1),
      policy: "allow",
    }));
    for (const binding of bindings) {
      const list = binding.enabled ? lists.get(binding.connectorId) : undefined;
      for (const tool of list?.tools ?? []) {
        if (binding.disabledTools.includes(tool.name)) continue;
        candidates.push({
          canonicalName: `${list!.name}.${tool.name}`,
          description: tool.description,
          inputSchema: tool.inputSchema,
          connectorId: binding.connectorId,
          toolName: tool.name,
          policy: effectivePolicy(binding, tool.name),
        });
      }
    }
    const entries = candidates.flatMap(({ policy, ...entry }) =>
      policy !== "deny" && isAllowedByPersona(allowlist, entry.canonicalName) ? [{ ...entry, policy }] : [],
    );
    let names: Map<string, string>;
    try {
      names = exposeToolNames(entries.map((entry) => entry.canonicalName));
    } catch (error) {
      if (error instanceof ToolNameCollisionError)
        throw new AppError("conflict:tools", error.message, { cause: error });
      throw error;
    }
    return entries.map((entry) => ({ ...entry, exposedName: names.get(entry.canonicalName)! }));
  }

  private async buildRevision(sessionId: string, reason: string): Promise<number> {
    const { db } = this.options;
    const candidates = await db.sessionConnector.findMany({ where: { sessionId } });
    const lists = await this.listConnectorTools(candidates);
    const built = await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "ChatSession" WHERE id = ${sessionId} FOR UPDATE`;
      const bindings = await tx.sessionConnector.findMany({ where: { sessionId } });
      const chat = await tx.chatSession.findUnique({
        where: { id: sessionId },
        select: { persona: { select: { toolAllowlist: true } } },
      });
      const tools = this.composeTools(bindings, lists, chat?.persona?.toolAllowlist ?? null);
      const session = await tx.chatSession.update({
        where: { id: sessionId },
        data: { toolsRevision: { increment: 1 } },
        select: { toolsRevision: true },
      });
      // Raw SQL with the JSON serialised once: a snapshot can hold hundreds of tools' schemas.
      await tx.$executeRaw`INSERT INTO "ToolSnapshot" ("sessionId", "revision", "tools", "reason")
        VALUES (${sessionId}, ${session.toolsRevision}, ${JSON.stringify(tools)}::jsonb, ${reason})`;
      return { revision: session.toolsRevision, tools };
    });
    this.remember(sessionId, built); // only once committed: another instance may reuse the number otherwise
    const { revision } = built;
    await appendEvent(db, { sessionId, type: "tools.changed", data: { revision, reason } });
    return revision;
  }
}
