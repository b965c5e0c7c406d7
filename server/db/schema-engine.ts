// The Prisma schema engine, in WebAssembly, driven through the `pg` driver adapter.
// Prisma's CLI needs a native engine binary that cannot be downloaded everywhere; this module gives
// Patchbay the engine operations it needs offline: applying `prisma/migrations/` and diffing the
// schema against them to write a new migration. Migrations stay in Prisma's own format, so
// `prisma migrate deploy` keeps working for anyone who has the native engine.
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import { SchemaEngine, type MigrationList } from "@prisma/schema-engine-wasm";
import pg from "pg";

/** Patchbay always runs from its project root (npm scripts, next start), where prisma/ lives. */
export const prismaDir = path.join(process.cwd(), "prisma");
export const migrationsDir = path.join(prismaDir, "migrations");
export const schemaPath = path.join(prismaDir, "schema.prisma");

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * A pool that reports Postgres' internal `"char"` columns (found in pg_catalog, which the engine
 * reads when it introspects) as text: the pg adapter does not map that type and would fail.
 */
function createCatalogSafePool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString });
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const patched = (...args: unknown[]): unknown => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.then((res: pg.QueryResult) => {
      for (const field of res.fields ?? []) {
        if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
      }
      return res;
    });
  };
  Object.assign(pool, { query: patched });
  return pool;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A driver adapter factory for the engine, with a throwaway shadow database for diffs. */
function createAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const connectTo = (connectionString: string) =>
    new PrismaPg(createCatalogSafePool(connectionString), { disposeExternalPool: true }).connect();
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => connectTo(url),
    connectToShadowDb: async () => {
      const database = `patchbay_shadow_${randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${database}"`);
      const adapter = await connectTo(withDatabase(url, database));
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await admin.end();
      };
      return adapter;
    },
  };
}

/** Opens a schema engine on the database at `url`. Call `free()` on the result when done. */
export async function openSchemaEngine(url: string): Promise<SchemaEngine> {
  const schema = await readFile(schemaPath, "utf8");
  const adapter = bindMigrationAwareSqlAdapterFactory(createAdapterFactory(url));
  return SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => undefined, adapter);
}

/** Reads `prisma/migrations/` into the shape the engine expects. */
export async function readMigrationList(dir = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(/* turbopackIgnore: true */ dir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => {
      const content = await readFile(path.join(dir, name, "migration.sql"), "utf8").then(
        (value) => ({ tag: "ok" as const, value }),
        (error: unknown) => ({ tag: "error" as const, value: String(error) }),
      );
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  );
  const lockContent = await readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

export const noFilters = { externalTables: [], externalEnums: [] };
