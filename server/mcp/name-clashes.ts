// Which switched-on connectors a chat leaves out because of their name. Canonical tool names are
// `<connector>.<tool>`, so two connectors with one name (ignoring case) would give different tools the
// same name, and one would silently shadow the other. Creating such a name is refused
// (connector-names.ts), but the admin file can gain a server named like a user's existing connector.
// Then, never merging: built-in tools win, then the admin's connector, and every other one is left
// out of the chat's tools with a reason the Tools panel shows on it. Pure, so the registry and the
// panel reach the same verdict from the same bindings.
import { BUILTIN_CONNECTOR, isSameConnectorName } from "./connector-names.ts";

export type NamedConnector = { connectorId: string; name: string; source: "admin" | "user" };

const RENAME = "Rename it in Settings → Connectors to use it here.";

/** connectorId -> why it is left out, for every connector among `connectors` that loses a name clash. */
export function findNameClashes(connectors: readonly NamedConnector[]): Map<string, string> {
  const leftOut = new Map<string, string>();
  const winners: NamedConnector[] = [];
  const ranked = [...connectors].sort(
    (a, b) => Number(a.source === "user") - Number(b.source === "user") || a.connectorId.localeCompare(b.connectorId),
  );
  for (const connector of ranked) {
    if (isSameConnectorName(connector.name, BUILTIN_CONNECTOR)) {
      leftOut.set(
        connector.connectorId,
        `Left out: "${BUILTIN_CONNECTOR}" is reserved for Patchbay's built-in tools. ${RENAME}`,
      );
      continue;
    }
    const winner = winners.find((candidate) => isSameConnectorName(candidate.name, connector.name));
    if (!winner) {
      winners.push(connector);
      continue;
    }
    const owner = winner.source === "admin" ? "the administrator's connector" : "another connector";
    leftOut.set(
      connector.connectorId,
      `Left out: ${owner} "${winner.name}" has the same name, so their tool names would clash. ${RENAME}`,
    );
  }
  return leftOut;
}
