// Recognises "the database cannot be reached right now" in any error the data layer throws: a raw
// `pg` error (refused or reset connection, a server shutting down or starting up, a connection
// ended mid-query), Prisma's connection errors (P1001, P1017, a pool timeout) and the pg driver
// adapter's (`DatabaseNotReachable`, `ConnectionClosed`). Such a failure is temporary: the API
// answers it with 503 "database unavailable", and the turn's writes wait and retry through it.
// Pure: it only reads properties (code, kind, message, cause), never `instanceof`.

/** Socket-level error codes of a connection that could not be opened or was cut. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTCONN"]);
/** SQLSTATEs: connection exceptions (08xxx) and operator intervention (57P01-57P03 shutdown/startup). */
const SQLSTATE = /^(08\d{3}|57P0[123])$/;
/** Prisma: cannot reach, timed out, server closed the connection, pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
/** The pg driver adapter's error kinds for the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Messages `pg` uses for a connection lost or never made (no code on these). */
const PG_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
];

function isUnavailableLink(error: object): boolean {
  const { code, kind, message } = error as { code?: unknown; kind?: unknown; message?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE.test(code) || PRISMA_CODES.has(code)))
    return true;
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  return typeof message === "string" && PG_MESSAGES.some((known) => message.startsWith(known));
}

/** True when `error`, or anything in its cause chain (or an AggregateError's errors), says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 6) return false;
  if ((error as { message?: unknown }).message === "fetch failed") return false; // an HTTP call (MCP, provider), not the database
  if (isUnavailableLink(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== error && isDatabaseUnavailable(cause, depth + 1);
}
