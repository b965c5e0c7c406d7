// The session's revisioned tool registry. Every change — a connector bound, switched on or off, a
// tool toggled, a connector's tools/list_changed, a connector going unhealthy — that changes what
// the model is shown bumps the session's `toolsRevision` atomically in Postgres and stores the immutable snapshot of that revision: the
// tools with the name each provider is shown and the reverse map back to connector + tool. Turns read
// the latest snapshot right before every model request, so a change applies from the next request.
// Storage is content-addressed: tool lists and per-connector selections are stored once per hash
// (tool-lists.ts) and a revision's row holds only the hashes (snapshot-manifest.ts), written with
// the revision bump in one compare-and-set statement (revision-store.ts). Any instance reads any
// revision back, including ones it never built. A rebuild reads the session's state in one statement;
// when it composes exactly the manifest of the revision it read (known here: revisions are immutable),
// it writes nothing, as the commit would have found; otherwise it commits.
// Tool policy is applied here too: `deny` tools and tools outside the chat persona's allowlist are
// not in the snapshot at all, and every tool that is carries its policy (`allow` or `ask`).
// As a ToolSource it also runs calls, resolving them through the snapshot to exactly one tool.
// It reports each committed revision to `onToolsChanged` (the session layer records it for the
// browsers); it writes no session events itself.
// Connections are taken on behalf of the chat's owner (connection-keys.ts): a connector with
// per-user credentials lists and runs tools with that user's own account, never another's.
// The lists of the switched-on connectors, and what a connector this instance cannot reach keeps while
// another instance reaches it, come from connector-lists.ts.
import { AppError } from "../errors.ts";
import { builtinToolList, builtinTools, type BuiltinTool } from "./builtin-tools.ts";
import type { JsonValue } from "../core/canonical.ts";
import type { RegistrySnapshot, RegistryTool } from "./registry-tool.ts";
import { ToolError, type ToolCallRequest, type ToolOutcome, type ToolSource } from "../core/tool-source.ts";
import { connectionKey, parseConnectionKey } from "./connection-keys.ts";
import { BUILTIN_CONNECTOR, PERSONA_CONNECTOR } from "./connector-names.ts";
import {
  commitRevision,
  fetchSelections,
  fetchToolLists,
  readLatestRevision,
  readRegistryState,
  readRevision,
} from "./revision-store.ts";
import { expandSelections, type ListSource, type Selection } from "./snapshot-manifest.ts";
import { RevisionComposer } from "./revision-composer.ts";
import { ConnectorLists } from "./connector-lists.ts";
import { callMcpTool } from "./tool-call.ts";
import { RebuildFailures, type RebuildFailure } from "./rebuild-failures.ts";
import { HashedStore } from "./tool-lists.ts";
import type { McpTool } from "./connection-types.ts";
import type { RegistryOptions } from "./registry-options.ts";

const SNAPSHOT_CACHE_LIMIT = 1_000;
/** Compare-and-set attempts of one rebuild before it gives up (each loss means another rebuild won). */
const MAX_COMMIT_ATTEMPTS = 20;
const cacheKey = (sessionId: string, revision: number) => `${sessionId}:${revision}`;
type BuildOptions = { onlyIfUnbuilt: boolean };

export class McpRegistry implements ToolSource {
  private readonly builtins: readonly BuiltinTool[];
  /** The built-ins as a tool list of the `builtin` connector, stored by hash like any other. */
  private readonly builtinList: ListSource;
  private readonly lists: HashedStore<readonly McpTool[]>;
  private readonly selections: HashedStore<Selection>;
  private readonly rebuilds = new Map<string, Promise<number>>();
  private readonly cache = new Map<string, RegistrySnapshot>();
  /** Per session, the latest revision this process knows and its manifest's JSON (see buildRevision). */
  private readonly manifests = new Map<string, { revision: number; json: string }>();
  /** Session owners never change, so each is read once. */
  private readonly owners = new Map<string, string>();
  private readonly failures = new RebuildFailures();
  private readonly connectorLists: ConnectorLists;
  private readonly composer: RevisionComposer;

  constructor(private readonly options: RegistryOptions) {
    this.builtins = options.builtins ?? builtinTools;
    this.builtinList = builtinToolList(this.builtins);
    this.lists = new HashedStore((hashes) => fetchToolLists(options.db, hashes));
    this.selections = new HashedStore((hashes) => fetchSelections(options.db, hashes));
    const stores = { lists: this.lists, selections: this.selections };
    this.composer = new RevisionComposer(this.builtinList);
    this.connectorLists = new ConnectorLists(options, stores, (key) => void this.rebuildForConnector(key, "health"));
  }

  /**
   * The latest snapshot (`latestRevision`: that revision, when the caller just read it); the first
   * call for a session builds revision 1 and returns it (or the revision another build made first)
   * without reading the latest revision again.
   */
  async snapshot(sessionId: string, latestRevision?: number): Promise<RegistrySnapshot> {
    const revision = latestRevision ?? (await readLatestRevision(this.options.db, sessionId));
    if (revision === null) throw new ToolError("unknown_tool", "This chat no longer exists.");
    if (revision > 0) return this.snapshotAt(sessionId, revision);
    const built = await this.queueBuild(sessionId, "initial", { onlyIfUnbuilt: true });
    return built > 0 ? this.snapshotAt(sessionId, built) : this.snapshot(sessionId);
  }

  /** One stored revision, whichever instance built it; immutable, so read once and then kept. */
  async snapshotAt(sessionId: string, revision: number): Promise<RegistrySnapshot> {
    const cached = this.cache.get(cacheKey(sessionId, revision));
    if (cached) return cached;
    const stored = await readRevision(this.options.db, sessionId, revision);
    if (stored.kind === "tools") return this.remember(sessionId, { revision, tools: stored.tools });
    this.noteManifest(sessionId, revision, JSON.stringify(stored.manifest));
    const selections = await this.selections.load(stored.manifest.selections);
    const ordered = stored.manifest.selections.map((hash) => selections.get(hash)!);
    const lists = await this.lists.load(ordered.map((selection) => selection.list));
    return this.remember(sessionId, { revision, tools: expandSelections(ordered, lists) });
  }

  /** Revisions are immutable, so a snapshot read once (or just built) is kept in memory. */
  private remember(sessionId: string, snapshot: RegistrySnapshot): RegistrySnapshot {
    if (this.cache.size >= SNAPSHOT_CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey(sessionId, snapshot.revision), snapshot);
    return snapshot;
  }

  /** Records a revision's manifest (immutable, like the revision) if it is the latest one seen here. */
  private noteManifest(sessionId: string, revision: number, json: string): void {
    const known = this.manifests.get(sessionId);
    if (known && known.revision >= revision) return;
    if (!known && this.manifests.size >= SNAPSHOT_CACHE_LIMIT)
      this.manifests.delete(this.manifests.keys().next().value!);
    this.manifests.set(sessionId, { revision, json });
  }

  async call(sessionId: string, request: ToolCallRequest, signal: AbortSignal): Promise<ToolOutcome> {
    const snapshot = await this.snapshotAt(sessionId, request.revision); // cached: the request just read it
    const tool = snapshot.tools.find((candidate) => candidate.canonicalName === request.canonicalName);
    if (!tool) throw new ToolError("unknown_tool", `The tool ${request.canonicalName} is not available in this chat.`);
    if (tool.connectorId === BUILTIN_CONNECTOR) return this.callBuiltin(tool, request.args, signal);
    if (tool.connectorId === PERSONA_CONNECTOR)
      throw new ToolError("unknown_tool", `${tool.canonicalName} is a sub-agent: it runs inside a chat's turn only.`);
    const connector = await this.options.resolveConnector(tool.connectorId);
    if (!connector) throw new ToolError("unknown_tool", `The connector of ${tool.canonicalName} was removed.`);
    return callMcpTool(
      this.options.pool,
      connectionKey(connector, await this.ownerOf(sessionId)),
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
    return this.queueBuild(sessionId, reason, { onlyIfUnbuilt: false });
  }

  /**
   * `onlyIfUnbuilt`: the first revision of a new chat, which every first read asks for; whichever
   * build (of this process, or of another instance by compare-and-set) gets there first makes it,
   * and the others return it.
   */
  private queueBuild(sessionId: string, reason: string, options: BuildOptions): Promise<number> {
    const previous = this.rebuilds.get(sessionId) ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => this.buildRevision(sessionId, reason, options));
    this.rebuilds.set(sessionId, next);
    return next.finally(() => {
      if (this.rebuilds.get(sessionId) === next) this.rebuilds.delete(sessionId);
    });
  }

  /**
   * Rebuilds every session that has this connection's connector switched on (list_changed, health
   * changes); for a per-user connection key, only that user's sessions. Never rejects: a failure is
   * logged and kept for the session's Tools panel (rebuildFailure).
   */
  async rebuildForConnector(key: string, reason: string): Promise<void> {
    const { connectorId, userId } = parseConnectionKey(key);
    const bindings = await this.options.db.sessionConnector
      .findMany({
        where: { connectorId, enabled: true, ...(userId !== null && { session: { ownerId: userId } }) },
        select: { sessionId: true },
      })
      .catch((error: unknown) => {
        console.warn(`[patchbay] could not find the chats using connector ${connectorId} (${reason}):`, error);
        return [];
      });
    await this.rebuildSessions(
      bindings.map((binding) => binding.sessionId),
      reason,
    );
  }

  /** Rebuilds several sessions (e.g. every chat using a persona whose allowlist changed); never rejects. */
  async rebuildSessions(sessionIds: string[], reason: string): Promise<void> {
    await Promise.all(
      sessionIds.map((sessionId) =>
        this.rebuild(sessionId, reason).catch((error: unknown) => this.failures.record(sessionId, reason, error)),
      ),
    );
  }

  /** Every built-in tool this registry offers, whether or not a chat switched it off. */
  listBuiltins(): readonly { canonicalName: string; description: string }[] {
    return this.builtins;
  }

  /** The last background rebuild of this session that failed, until one succeeds; null when none did. */
  rebuildFailure(sessionId: string): RebuildFailure | null {
    return this.failures.get(sessionId);
  }

  /** Tries a failed background rebuild again (e.g. when the Tools panel loads); a no-op when none failed. */
  async retryFailedRebuild(sessionId: string): Promise<void> {
    const failure = this.failures.get(sessionId);
    if (failure) await this.rebuildSessions([sessionId], failure.reason);
  }

  private async callBuiltin(tool: RegistryTool, args: Record<string, JsonValue>, signal: AbortSignal) {
    const builtin = this.builtins.find((candidate) => candidate.canonicalName === tool.canonicalName);
    if (!builtin) throw new ToolError("unknown_tool", `There is no tool named ${tool.canonicalName}.`);
    return { output: await builtin.run(args, signal), isError: false };
  }

  private async ownerOf(sessionId: string): Promise<string> {
    const known = this.owners.get(sessionId);
    if (known) return known;
    const session = await this.options.db.chatSession.findUnique({
      where: { id: sessionId },
      select: { ownerId: true },
    });
    if (!session) throw new ToolError("unknown_tool", "This chat no longer exists.");
    if (this.owners.size >= SNAPSHOT_CACHE_LIMIT) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(sessionId, session.ownerId);
    return session.ownerId;
  }

  /** True when the revision just read (still the latest then) holds this very manifest. */
  private isLatestManifest(sessionId: string, revision: number, manifestJson: string): boolean {
    const known = this.manifests.get(sessionId);
    return known?.revision === revision && known.json === manifestJson;
  }

  private async buildRevision(sessionId: string, reason: string, options: BuildOptions): Promise<number> {
    const { db } = this.options;
    const ownerId = await this.ownerOf(sessionId);
    for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
      const state = await readRegistryState(db, sessionId);
      if (!state) throw new ToolError("unknown_tool", "This chat no longer exists.");
      if (options.onlyIfUnbuilt && state.revision > 0) return state.revision;
      const lists = await this.connectorLists.gather(state.bindings, ownerId, { sessionId, revision: state.revision });
      const { tools, sources, selections, manifest, manifestJson } = this.composer.compose(sessionId, state, lists);
      // What the commit's compare-and-set would find (the lists and selections of that revision are
      // stored), without its round trip: the same tools make no revision and no event.
      if (this.isLatestManifest(sessionId, state.revision, manifestJson)) {
        this.failures.clear(sessionId);
        return state.revision;
      }
      const committed = await commitRevision(db, {
        sessionId,
        readAt: state.revision,
        pendingLists: this.lists.pendingRows(sources),
        pendingSelections: this.selections.pendingRows(selections),
        manifest,
        reason,
      });
      // Stored either way: the statement inserts them whether or not its compare-and-set wins.
      for (const { hash, value } of sources) this.lists.remember(hash, value);
      for (const { hash, value } of selections) this.selections.remember(hash, value);
      if (committed.kind === "lost") continue; // another instance's rebuild won: read the bindings again
      const { revision } = committed;
      this.noteManifest(sessionId, revision, manifestJson);
      this.failures.clear(sessionId);
      if (committed.kind === "unchanged") return revision; // the same tools: no revision, no event
      this.remember(sessionId, { revision, tools }); // only once committed: another instance may reuse the number otherwise
      await this.options.onToolsChanged?.({ sessionId, revision, reason });
      return revision;
    }
    throw new AppError("conflict:tools", "The chat's tools kept changing while they were being updated; try again.");
  }
}
