// A connection's tool list (mcp-connection.ts): kept while the connection's session lives, loaded
// once at a time (concurrent readers share the load), and reloaded, debounced, on tools/list_changed.
// `onChanged` hears when a loaded list differs from the last one known (never on the first). A load
// that a later load overtook does not overwrite the newer list.
import { type McpTool } from "./connection-types.ts";

/** Loads the list; `keep` stores it, if no later load has started meanwhile. */
export type ToolListLoader = (keep: (tools: McpTool[]) => void) => Promise<McpTool[]>;

export class ToolListCache {
  private tools: McpTool[] | null = null;
  private knownTools: McpTool[] | null = null;
  private loading: Promise<McpTool[]> | null = null;
  private generation = 0;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly loader: ToolListLoader,
    private readonly onChanged: () => void,
    private readonly debounceMs: number,
  ) {}

  /** The kept list, or null when none is kept. */
  get current(): McpTool[] | null {
    return this.tools;
  }

  /** The load under way, or a new one. */
  loadShared(): Promise<McpTool[]> {
    return this.loading ?? this.load();
  }

  load(): Promise<McpTool[]> {
    const generation = ++this.generation;
    const load = this.loader((tools) => {
      if (generation === this.generation) this.store(tools);
    });
    this.loading = load;
    void load
      .finally(() => {
        if (this.loading === load) this.loading = null;
      })
      .catch(() => undefined);
    return load;
  }

  /** Reloads after the debounce, unless `isStillWanted` says no by then; `onError` gets a failure. */
  refreshSoon(isStillWanted: () => boolean, onError: (error: unknown) => void): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      if (!isStillWanted()) return;
      this.load().catch(onError);
    }, this.debounceMs);
    this.refreshTimer.unref();
  }

  cancelRefresh(): void {
    clearTimeout(this.refreshTimer);
  }

  /** Drops the kept list (the session it belongs to ended); the last known one stays for comparison. */
  forget(): void {
    this.tools = null;
  }

  private store(tools: McpTool[]): void {
    const changed = this.knownTools !== null && JSON.stringify(this.knownTools) !== JSON.stringify(tools);
    this.tools = tools;
    this.knownTools = tools;
    if (changed) this.onChanged();
  }
}
