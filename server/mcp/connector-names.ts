// Connector names. A name is the `server` in canonical tool names `server.tool`, so two connectors a
// chat can switch on together must never share one: `builtin` is Patchbay's own tools' and reserved
// everywhere, and a user may not take (or rename to) a name the admin file uses (connectors.ts).
// Should a clash still arise — the admin adds a server named like a user's existing connector — the
// registry leaves the user's connector out with a reason the Tools panel shows (name-clashes.ts).
import { z } from "zod";

export const BUILTIN_CONNECTOR = "builtin";
/** The server name of personas offered as sub-agents (`persona.<slug>`, sub-agent-tools.ts); reserved too. */
export const PERSONA_CONNECTOR = "persona";

/** Names compare without case here: "GitHub" and "github" would confuse anybody reading tool names. */
export function isSameConnectorName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export const connectorNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,40}$/, { error: "must be 1-40 letters, digits, '-' or '_'" })
  .refine((name) => !isSameConnectorName(name, BUILTIN_CONNECTOR), {
    error: `"${BUILTIN_CONNECTOR}" is reserved for Patchbay's built-in tools`,
  })
  .refine((name) => !isSameConnectorName(name, PERSONA_CONNECTOR), {
    error: `"${PERSONA_CONNECTOR}" is reserved for personas used as sub-agents`,
  });
