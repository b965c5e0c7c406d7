// Applies every pending migration in prisma/migrations/ to a database, offline, through the
// WebAssembly schema engine. Safe to call on every start: applied migrations are skipped, and
// Prisma's own `_prisma_migrations` table records them exactly as `prisma migrate deploy` would.
import { noFilters, openSchemaEngine, readMigrationList } from "./schema-engine.ts";

export async function applyMigrations(url: string): Promise<string[]> {
  const engine = await openSchemaEngine(url);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await readMigrationList(),
      filters: noFilters,
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}
