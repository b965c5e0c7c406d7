// What the operator's log says when an MCP connection fails. A stdio child's stderr is the best clue
// to why, and it can echo secrets (an API key the admin passed in its env), so it goes to the server
// log only — never to a browser or a model — with the connector's own env and header values redacted.
import type { ConnectorConfig } from "./transports.ts";

/** Stderr lines a failure report carries, at most. */
const LOGGED_STDERR_LINES = 20;
/** Shorter values are not redacted: they cannot be secrets, and replacing them would garble the log. */
const MIN_SECRET_LENGTH = 4;
const REDACTED = "[redacted]";

/** The values of the connector's env (stdio) or headers (remote), and each word of them (`Bearer <token>`). */
export function secretsOf(config: ConnectorConfig): string[] {
  const values = Object.values(config.kind === "stdio" ? config.env : config.headers);
  const candidates = values.flatMap((value) => [value, ...value.split(/\s+/)]);
  const secrets = new Set(candidates.filter((value) => value.length >= MIN_SECRET_LENGTH));
  return [...secrets].sort((a, b) => b.length - a.length); // longest first, so a value beats its own words
}

export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((redacted, secret) => redacted.split(secret).join(REDACTED), text);
}

/** Logs a connection failure for the operator: the connector, what happened, and its stderr tail, redacted. */
export function logConnectorFailure(
  connector: string,
  message: string,
  stderrTail: readonly string[],
  config: ConnectorConfig,
): void {
  const secrets = secretsOf(config);
  const lines = stderrTail.filter((line) => line.trim() !== "").slice(-LOGGED_STDERR_LINES);
  const stderr = lines.length > 0 ? `\n  stderr (last lines):\n${lines.map((line) => `    ${line}`).join("\n")}` : "";
  console.warn(redact(`[patchbay] MCP connector ${connector}: ${message}${stderr}`, secrets));
}

/** Failures in a row after which the log says a line again: the 1st in full, then the 2nd, 4th, 8th… */
const isLoggedAttempt = (failures: number) => (failures & (failures - 1)) === 0;

/**
 * The operator's log of one connection: a server that stays down is retried with backoff for as long
 * as Patchbay runs, so only the first failure of a run is logged in full, then a one-line reminder at
 * the 2nd, 4th, 8th… failure in a row, and one line when it connects again.
 */
export class ConnectorFailureLog {
  private failures = 0;
  private since = 0;
  private connector = "";

  failed(connector: string, message: string, stderrTail: readonly string[], config: ConnectorConfig): void {
    this.connector = connector;
    if (this.failures++ === 0) this.since = Date.now();
    if (this.failures === 1) return logConnectorFailure(connector, message, stderrTail, config);
    if (!isLoggedAttempt(this.failures)) return;
    const since = new Date(this.since).toISOString();
    const line = `[patchbay] MCP connector ${connector}: still failing, ${this.failures} attempts since ${since}: ${message}`;
    console.warn(redact(line, secretsOf(config)));
  }

  connected(): void {
    if (this.failures > 0) {
      console.warn(
        `[patchbay] MCP connector ${this.connector}: connected again after ${this.failures} failed attempts`,
      );
    }
    this.failures = 0;
  }
}
