// The tool lists a registry build (registry.ts) composes, one per switched-on connector: the list its
// connection (on behalf of the chat's owner, connection-keys.ts) gives now. A connector removed,
// unreadable, unhealthy or left out for its name has none that revision. A connector's config is
// looked up once per row content: the state read gives each bound connector's fingerprint
// (revision-store.ts), and a lookup is kept while the fingerprint stays the same, so a warm rebuild
// reads no connector rows. A lookup that finds nothing or fails is not kept. Across instances
// (health-board.ts): a connector this instance cannot reach keeps, in a chat, the list of the chat's
// latest revision while another live instance reaches it; `recheck` (a rebuild) runs for it when the
// other instance's word goes stale, so the tools leave only when no instance reaches the connector.
import { connectionKey } from "./connection-keys.ts";
import type { McpTool } from "./connection-types.ts";
import { findNameClashes } from "./name-clashes.ts";
import type { RegistryOptions, ResolvedConnector } from "./registry-options.ts";
import { readRevision, type Binding } from "./revision-store.ts";
import type { ListSource, Selection } from "./snapshot-manifest.ts";
import { hashToolList, type HashedStore } from "./tool-lists.ts";

/** How many connectors' lookups are kept. */
const REMEMBERED_CONNECTORS = 5_000;

export type ListStores = { lists: HashedStore<readonly McpTool[]>; selections: HashedStore<Selection> };
type Lookup = { fingerprint: string; connector: Promise<ResolvedConnector | null> };

export class ConnectorLists {
  /** Connector lookups (done or under way) by connector id, with the fingerprint they were made for. */
  private readonly lookups = new Map<string, Lookup>();
  /** Rebuilds due when another instance's word on a connection goes stale, by connection key. */
  private readonly rechecks = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly options: RegistryOptions,
    private readonly stores: ListStores,
    private readonly recheck: (key: string) => void,
  ) {}

  /**
   * The tool lists of the switched-on connectors (a connector removed, unreadable, unhealthy or left
   * out for its name has none this revision).
   */
  async gather(
    bindings: Binding[],
    ownerId: string,
    latest: { sessionId: string; revision: number },
  ): Promise<Map<string, ListSource>> {
    const lists = new Map<string, ListSource>();
    const enabled = bindings.filter((binding) => binding.enabled);
    const clashes = findNameClashes(enabled);
    await Promise.all(
      enabled
        .filter((binding) => !clashes.has(binding.connectorId))
        .map(async ({ connectorId, fingerprint }) => {
          const connector = await this.lookUp(connectorId, fingerprint);
          if (!connector) return;
          const signal = AbortSignal.timeout(this.options.listTimeoutMs ?? 15_000);
          const key = connectionKey(connector, ownerId);
          const tools = await this.options.pool.listTools(key, connector.config, signal).catch(() => null);
          const source = tools
            ? { name: connector.name, list: hashToolList(tools) }
            : await this.keptElsewhere(key, connector, latest);
          if (source) lists.set(connector.id, source);
        }),
    );
    return lists;
  }

  /**
   * The connector's list at the chat's latest revision, when this instance cannot reach it but another
   * live instance can (health-board.ts); null otherwise. Schedules the recheck for when that word
   * goes stale.
   */
  private async keptElsewhere(
    key: string,
    connector: ResolvedConnector,
    latest: { sessionId: string; revision: number },
  ): Promise<ListSource | null> {
    const check = this.options.reachableElsewhere;
    if (!check || latest.revision === 0) return null;
    const freshForMs = await check(key).catch(() => null);
    if (freshForMs === null) return null;
    this.recheckAfter(key, freshForMs);
    const stored = await readRevision(this.options.db, latest.sessionId, latest.revision).catch(() => null);
    if (stored?.kind !== "manifest") return null;
    const selections = await this.stores.selections.load(stored.manifest.selections);
    const selection = [...selections.values()].find((candidate) => candidate.connectorId === connector.id);
    if (!selection) return null;
    const list = (await this.stores.lists.load([selection.list])).get(selection.list)!;
    // Its stored hash, not a new one: Postgres may have reordered keys, and the same list must give
    // the same manifest (so keeping the tools makes no revision). The row is stored already.
    return { name: connector.name, list: { hash: selection.list, json: JSON.stringify(list), value: list } };
  }

  private recheckAfter(key: string, ms: number): void {
    if (this.rechecks.has(key)) return;
    const timer = setTimeout(() => {
      this.rechecks.delete(key);
      this.recheck(key);
    }, ms + 250);
    timer.unref();
    this.rechecks.set(key, timer);
  }

  /** The connector's lookup for this row content: the kept one, or a new one (kept unless it finds nothing). */
  private lookUp(connectorId: string, fingerprint: string): Promise<ResolvedConnector | null> {
    const known = this.lookups.get(connectorId);
    if (known?.fingerprint === fingerprint) return known.connector;
    const lookup = { fingerprint, connector: this.resolve(connectorId) };
    this.lookups.delete(connectorId);
    if (this.lookups.size >= REMEMBERED_CONNECTORS) this.lookups.delete(this.lookups.keys().next().value!);
    this.lookups.set(connectorId, lookup);
    void lookup.connector.then((connector) => {
      if (!connector && this.lookups.get(connectorId) === lookup) this.lookups.delete(connectorId);
    });
    return lookup.connector;
  }

  /** A connector's config, or null (and a warning) when it is removed or its secrets are unreadable. */
  private resolve(connectorId: string): Promise<ResolvedConnector | null> {
    return this.options.resolveConnector(connectorId).catch((error: unknown) => {
      console.warn(`[patchbay] connector ${connectorId} cannot be used:`, (error as Error).message);
      return null;
    });
  }
}
