// The admin connectors in the database, kept in step with the admin file (MCP_SERVERS_FILE): rows
// hold only what may be shown (name, transport, URL origin); commands, env, headers and full URLs
// stay in memory (admin-file.ts).
import type { Db } from "../db/client.ts";
import type { AdminConnector } from "./admin-file.ts";

/**
 * Makes the admin connectors in the database match the admin file: one row per enabled server
 * (name, transport, URL origin), rows of servers gone or disabled deleted (with their session
 * bindings). Safe to run from several instances at once: they take turns on an advisory lock.
 */
export async function syncAdminConnectors(
  db: Db,
  admin: AdminConnector[],
): Promise<{ created: string[]; updated: string[]; removed: string[] }> {
  const offered = new Map(
    admin.filter((connector) => !connector.disabled).map((connector) => [connector.name, connector.config]),
  );
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('patchbay:admin-connectors'))`;
    const rows = await tx.connector.findMany({
      where: { source: "admin" },
      select: { id: true, name: true, transport: true, url: true },
      orderBy: { createdAt: "asc" },
    });
    const result = { created: [] as string[], updated: [] as string[], removed: [] as string[] };
    const kept = new Set<string>();
    for (const row of rows) {
      const config = offered.get(row.name);
      if (!config || kept.has(row.name)) {
        await tx.connector.delete({ where: { id: row.id } });
        result.removed.push(row.name);
        continue;
      }
      kept.add(row.name);
      const url = config.kind === "stdio" ? null : new URL(config.url).origin;
      if (row.transport !== config.kind || row.url !== url) {
        await tx.connector.update({ where: { id: row.id }, data: { transport: config.kind, url } });
        result.updated.push(row.name);
      }
    }
    for (const [name, config] of offered) {
      if (kept.has(name)) continue;
      const url = config.kind === "stdio" ? null : new URL(config.url).origin;
      await tx.connector.create({ data: { source: "admin", ownerId: null, name, transport: config.kind, url } });
      result.created.push(name);
    }
    for (const names of Object.values(result)) names.sort();
    return result;
  });
}
