// Content addressing for the registry's stored parts. A connector's tool list (names, descriptions,
// canonical input schemas) and what a revision shows of it (snapshot-manifest.ts) are each stored
// once, keyed by the SHA-256 of their JSON, and a revision refers to them by hash; so a revision
// writes only what is new, never the schemas again. Invariants:
// - A hash names exactly one value: the SHA-256 (hex) of the exact JSON text stored. Rows are never
//   updated; a changed list or selection is a new row.
// - The same list object (the pool hands out its cached array until the server's list changes) is
//   normalised, serialised and hashed once per process (a WeakMap on the array).
// - Values read back are parsed once per hash and shared: callers must not mutate them. Sharing the
//   same schema objects across revisions is what lets renderers memoise per-provider conversions.
import { createHash } from "node:crypto";

import type { McpTool } from "./connection-types.ts";

/** A value with its content hash and the exact JSON the hash was taken of. */
export type Hashed<T> = { hash: string; json: string; value: T };

export function hashJson<T>(value: T, json = JSON.stringify(value)): Hashed<T> {
  return { hash: createHash("sha256").update(json, "utf8").digest("hex"), json, value };
}

const hashedLists = new WeakMap<readonly McpTool[], Hashed<readonly McpTool[]>>();

/**
 * The list normalised to `{ name, description, inputSchema }` per tool (plus `readOnly: true` for a
 * tool marked read-only, so unmarked lists keep their hashes), hashed once per list object.
 */
export function hashToolList(tools: readonly McpTool[]): Hashed<readonly McpTool[]> {
  const known = hashedLists.get(tools);
  if (known) return known;
  const normalised = tools.map(({ name, description, inputSchema, readOnly }) =>
    readOnly ? { name, description, inputSchema, readOnly } : { name, description, inputSchema },
  );
  const list = { ...hashJson(normalised), value: tools };
  hashedLists.set(tools, list);
  return list;
}

const CACHE_LIMIT = 5_000;

/**
 * One table's content-addressed values as this process knows them: the hashes it has seen stored
 * (written or read) with their values, bounded (the oldest is forgotten first, and then merely
 * written again with ON CONFLICT DO NOTHING, or read again).
 */
export class HashedStore<T> {
  private readonly values = new Map<string, T>();

  /** `fetch` reads the rows with these hashes (one query); rows not found are left out. */
  constructor(private readonly fetch: (hashes: string[]) => Promise<{ hash: string; value: T }[]>) {}

  /** Records a value known to be stored under its hash. */
  remember(hash: string, value: T): void {
    if (this.values.has(hash)) return;
    if (this.values.size >= CACHE_LIMIT) this.values.delete(this.values.keys().next().value!);
    this.values.set(hash, value);
  }

  /** The JSON array of `{ hash, value }` rows to insert: those not known to be stored, each once. */
  pendingRows(items: readonly Hashed<unknown>[]): string {
    const pending = new Map<string, string>();
    for (const { hash, json } of items) if (!this.values.has(hash)) pending.set(hash, json);
    return `[${[...pending].map(([hash, json]) => `{"hash":"${hash}","value":${json}}`).join(",")}]`;
  }

  /** The values with these hashes, from memory or else in one query. Throws if one is missing. */
  async load(hashes: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    const missing = [...new Set(hashes)].filter((hash) => {
      const value = this.values.get(hash);
      if (value !== undefined) found.set(hash, value);
      return value === undefined;
    });
    if (missing.length === 0) return found;
    for (const row of await this.fetch(missing)) {
      found.set(row.hash, row.value);
      this.remember(row.hash, row.value);
    }
    const absent = missing.filter((hash) => !found.has(hash));
    if (absent.length > 0) throw new Error(`Stored tool data missing for hashes ${absent.join(", ")}.`);
    return found;
  }
}
