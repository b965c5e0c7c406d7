// Applies every pending migration in prisma/migrations/ to a database, offline, through the
// WebAssembly schema engine. Safe to call on every start: applied migrations are skipped, and
// Prisma's own `_prisma_migrations` table records them exactly as `prisma migrate deploy` would.
// When that table already lists every migration as applied, the engine is not opened at all: its
// advisory lock (10 s timeout) would otherwise make processes starting together on one database
// (PATCHBAY_WORKERS) wait on each other for nothing.
import pg from "pg";

import { noFilters, openSchemaEngine, readMigrationList } from "./schema-engine.ts";

/** Whether every one of `names` is recorded as applied (false when the table does not exist yet). */
async function isEveryMigrationApplied(url: string, names: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.name));
    return names.every((name) => applied.has(name));
  } catch {
    return false; // no table yet, or no answer: the engine decides (and reports)
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function applyMigrations(url: string): Promise<string[]> {
  const migrationsList = await readMigrationList();
  const names = migrationsList.migrationDirectories.map((directory) => directory.path);
  if (await isEveryMigrationApplied(url, names)) return [];
  const engine = await openSchemaEngine(url);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}
