// What a registry is built with (RegistryOptions): the database, the connection pool, how a
// connector id resolves to its config, the built-in tools, timeouts, and `onToolsChanged`, the
// listener told of every revision it commits (the session layer records it for the browsers).
import type { Db } from "../db/client.ts";
import type { BuiltinTool } from "./builtin-tools.ts";
import type { ConnectionPool } from "./connection-pool.ts";
import type { ConnectorConfig } from "./transports.ts";

export type ResolvedConnector = { id: string; name: string; config: ConnectorConfig };

/** A committed revision: which session, its new revision number, and why it was built. */
export type ToolsChange = { sessionId: string; revision: number; reason: string };
/** Told of every committed revision, before the rebuild that made it returns. */
export type ToolsChangedListener = (change: ToolsChange) => Promise<void>;

export type RegistryOptions = {
  db: Db;
  /** The session layer records each change for the browsers (a `tools.changed` event). */
  onToolsChanged?: ToolsChangedListener;
  pool: ConnectionPool;
  resolveConnector: (connectorId: string) => Promise<ResolvedConnector | null>;
  builtins?: readonly BuiltinTool[];
  toolTimeoutMs: number;
  maxOutputChars: number;
  listTimeoutMs?: number;
  /** How long another live instance's word that it reaches this connection stays fresh (ms), or null. */
  reachableElsewhere?: (connectionKey: string) => Promise<number | null>;
};
