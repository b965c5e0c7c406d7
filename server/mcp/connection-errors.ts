// The errors a connection (mcp-connection.ts) shows users and models, in words: the connector's name
// (never the pool key, which holds ids), and for an admin's stdio server a hint to ask the
// administrator, since its stderr is in the server log only (connector-log.ts).
import { ToolError } from "../core/tool-source.ts";
import { type ConnectorConfig } from "./transports.ts";

/** Where a user is sent when an admin's stdio server fails: its stderr is in the server log only. */
const ADMIN_HINT = " Ask an administrator to check the server log.";

/** `lastError` of a connection that waits for the user to authorize. */
export const AUTHORIZATION_NEEDED = "Authorization needed: the user must connect their account to this connector.";

/** An admin's stdio server: its details are in the server log, so users are sent to the admin. */
export function withAdminHint(config: ConnectorConfig, message: string): string {
  return config.kind === "stdio" ? `${message.replace(/\.?$/, ".")}${ADMIN_HINT}` : message;
}

export function connectError(name: string, config: ConnectorConfig, reason: string): ToolError {
  return new ToolError("unavailable", withAdminHint(config, `The ${name} connector is unavailable: ${reason}`));
}

export function wentAwayError(name: string, config: ConnectorConfig): ToolError {
  return new ToolError(
    "unavailable",
    withAdminHint(
      config,
      `The ${name} connector's server went away during the call; its tools are unavailable until it is back.`,
    ),
  );
}

/** The server wants the user to (re)authorize (no tokens yet, refresh refused, or more scope). */
export function unauthorizedError(name: string): ToolError {
  return new ToolError("failed", `The ${name} connector needs the user to authorize Patchbay first.`);
}

/** A connection closed, or refusing to connect because Patchbay is shutting down. */
export function closedError(name: string, isShuttingDown: boolean): ToolError {
  if (isShuttingDown) {
    return new ToolError("unavailable", `The ${name} connector is unavailable: Patchbay is shutting down.`);
  }
  return new ToolError("unavailable", `The ${name} connector was closed.`);
}
