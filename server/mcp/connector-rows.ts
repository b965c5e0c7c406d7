// A stored Connector row's own fields, read and written safely: its transport (one of the known
// three) and its header values, sealed at rest (secrets.ts) as `{ headers }` and opened only to
// connect or to merge a change. A row that cannot be read this way is an internal:database error.
import { z } from "zod";

import { openSecret, sealSecret } from "../crypto/secrets.ts";
import { AppError } from "../errors.ts";
import type { ConnectorConfig } from "./transports.ts";

export type ConnectorTransport = ConnectorConfig["kind"];

const sealedSecretsSchema = z.object({ headers: z.record(z.string(), z.string()) });

export function toTransport(transport: string): ConnectorTransport {
  if (transport === "stdio" || transport === "streamable-http" || transport === "sse") return transport;
  throw new AppError("internal:database", `A connector has an unknown transport "${transport}".`);
}

export async function readHeaders(sealed: string | null): Promise<Record<string, string>> {
  if (sealed === null) return {};
  const opened = await openSecret(sealed);
  try {
    return sealedSecretsSchema.parse(JSON.parse(opened)).headers;
  } catch (error) {
    throw new AppError("internal:database", "A connector's saved secrets are not in the expected shape.", {
      cause: error,
    });
  }
}

export async function sealHeaders(headers: Record<string, string>): Promise<string | null> {
  return Object.keys(headers).length === 0 ? null : sealSecret(JSON.stringify({ headers }));
}
