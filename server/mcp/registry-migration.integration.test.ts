// The content-addressed tool lists migration on a database that already has registry revisions:
// migrations up to the one before it, old-format ToolSnapshot rows (the whole tool array), then the
// rest of the migrations through the same schema engine the app uses; the old revisions read back
// unchanged, and the next revision is stored the new way.
import { randomBytes } from "node:crypto";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createDbClient, type Db } from "../db/client.ts";
import { noFilters, openSchemaEngine, readMigrationList } from "../db/schema-engine.ts";
import { env } from "../env.ts";
import { builtinTools } from "./builtin-tools.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { McpRegistry } from "./registry.ts";
import { type RegistryTool } from "./registry-tool.ts";

const MIGRATION = "20261122033026_content_addressed_tool_lists";
const name = `patchbay_test_${randomBytes(6).toString("hex")}`;
const url = Object.assign(new URL(env.TEST_DATABASE_ADMIN_URL), { pathname: `/${name}` }).toString();
let db: Db;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: env.TEST_DATABASE_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Applies the migrations `keep` selects, as the app applies them all at start. */
async function migrate(keep: (migration: string) => boolean): Promise<string[]> {
  const list = await readMigrationList();
  const engine = await openSchemaEngine(url);
  try {
    const migrationsList = { ...list, migrationDirectories: list.migrationDirectories.filter((m) => keep(m.path)) };
    return (await engine.applyMigrations({ migrationsList, filters: noFilters })).appliedMigrationNames;
  } finally {
    engine.free();
  }
}

const legacyTools: RegistryTool[] = [
  {
    canonicalName: "builtin.current_time",
    exposedName: "builtin_current_time",
    description: "Returns the current date and time.",
    inputSchema: { type: "object", properties: { timezone: { type: "string" } } },
    connectorId: "builtin",
    toolName: "current_time",
    policy: "allow",
  },
  {
    canonicalName: "files.read/v2",
    exposedName: "files_read_v2",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    connectorId: "connector-1",
    toolName: "read/v2",
    policy: "ask",
  },
];

beforeAll(async () => {
  await admin(`CREATE DATABASE "${name}"`);
  expect(await migrate((migration) => migration < MIGRATION)).not.toContain(MIGRATION);
  db = createDbClient(url);
  await db.$executeRaw`INSERT INTO "User" ("id", "name", "updatedAt") VALUES ('u1', 'Old user', now())`;
  await db.$executeRaw`
    INSERT INTO "ChatSession" ("id", "ownerId", "title", "updatedAt", "toolsRevision")
    VALUES ('s1', 'u1', 'Old chat', now(), 2)`;
  for (const revision of [1, 2]) {
    const tools = JSON.stringify(legacyTools.slice(0, revision));
    await db.$executeRaw`
      INSERT INTO "ToolSnapshot" ("sessionId", "revision", "tools", "reason")
      VALUES ('s1', ${revision}, ${tools}::jsonb, 'connector on')`;
  }
  expect(await migrate(() => true)).toContain(MIGRATION);
});

afterAll(async () => {
  await db?.$disconnect();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe("migrating revisions stored before content addressing", () => {
  it("reads the old revisions as they were, and stores the next one as a manifest", async () => {
    const registry = new McpRegistry({
      db,
      pool: new ConnectionPool(),
      resolveConnector: () => Promise.resolve(null), // the old connector is gone: no tools of its own
      toolTimeoutMs: 5_000,
      maxOutputChars: 10_000,
    });
    expect(await registry.snapshot("s1")).toEqual({ revision: 2, tools: legacyTools });
    expect(await registry.snapshotAt("s1", 1)).toEqual({ revision: 1, tools: legacyTools.slice(0, 1) });

    expect(await registry.rebuild("s1", "after the migration")).toBe(3);
    const row = await db.toolSnapshot.findUniqueOrThrow({
      where: { sessionId_revision: { sessionId: "s1", revision: 3 } },
    });
    expect(row.tools).toBeNull();
    expect(row.manifest).toMatchObject({ v: 2, selections: [expect.any(String)] });
    const latest = await registry.snapshot("s1");
    expect(latest.tools.map((tool) => tool.canonicalName).sort()).toEqual(
      builtinTools.map((tool) => tool.canonicalName).sort(),
    );
  });
});
