// A directory of one user's own for a per-user stdio server. A process per user is not enough for a
// server that keeps its state in a file (server-memory writes one memory.jsonl wherever it is told,
// by default inside its own package): every user's process would read the same file. So the admin
// file may write `${PATCHBAY_USER_DIR}` in a stdio server's args, env values or cwd; each user's
// process gets it replaced by `<PATCHBAY_DATA_DIR>/mcp-users/<connector id>/<user id>` (created,
// mode 0700). It is Patchbay's only placeholder (other `${...}` stay literal), and a shared server
// (`"shared": true`) may not use it, since it has no one user.
import { mkdir } from "node:fs/promises";
import path from "node:path";

import type { ConnectorConfig } from "./transports.ts";

export const USER_DIR_PLACEHOLDER = "${PATCHBAY_USER_DIR}";

type StdioConfig = Extract<ConnectorConfig, { kind: "stdio" }>;

export function usesUserDir(config: StdioConfig): boolean {
  const values = [...config.args, ...Object.values(config.env), config.cwd ?? ""];
  return values.some((value) => value.includes(USER_DIR_PLACEHOLDER));
}

/** The user's directory for a connector, under `root`; ids are cuid-like, anything else is refused. */
export function userDirFor(root: string, connectorId: string, userId: string): string {
  for (const id of [connectorId, userId]) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`Not a usable id for a directory: ${JSON.stringify(id)}`);
  }
  return path.resolve(root, "mcp-users", connectorId, userId);
}

/** `config` with the placeholder replaced by the user's directory, which is created first. */
export async function withUserDir(config: StdioConfig, dir: string): Promise<StdioConfig> {
  if (!usesUserDir(config)) return config;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const fill = (value: string) => value.replaceAll(USER_DIR_PLACEHOLDER, dir);
  return {
    ...config,
    args: config.args.map(fill),
    env: Object.fromEntries(Object.entries(config.env).map(([name, value]) => [name, fill(value)])),
    ...(config.cwd !== undefined && { cwd: fill(config.cwd) }),
  };
}
