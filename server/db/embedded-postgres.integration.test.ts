// The embedded Postgres end to end, in a throwaway folder: start it, apply the real migrations
// (once, then nothing), write through Prisma and the session module, stop, start again on the same
// folder and read the data back; and refuse to open a folder whose lock a live process holds.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createDbClient } from "./client.ts";
import { createChatSession, listChatSessions } from "./chat-sessions.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.ts";
import { applyMigrations } from "./migrate.ts";
import { readMigrationList } from "./schema-engine.ts";

const SLOW = 120_000;

let tempRoot: string;
let running: EmbeddedPostgres | undefined;

beforeAll(async () => {
  tempRoot = await mkdtemp(path.join(os.tmpdir(), "patchbay-embedded-"));
});

afterAll(async () => {
  await running?.close();
  await rm(tempRoot, { recursive: true, force: true });
});

describe("startEmbeddedPostgres", () => {
  it(
    "migrates once, keeps data across a restart, and releases its lock on close",
    async () => {
      const dataDir = path.join(tempRoot, "persist");
      const lockPath = path.join(dataDir, "pglite.lock");
      const migrationNames = (await readMigrationList()).migrationDirectories.map((entry) => entry.path);
      expect(migrationNames).toContain("20261122002215_init");

      running = await startEmbeddedPostgres(dataDir);
      expect(running.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
      expect(await readFile(lockPath, "utf8")).toBe(String(process.pid));
      expect(await applyMigrations(running.url)).toEqual(migrationNames);
      expect(await applyMigrations(running.url)).toEqual([]);

      const db = createDbClient(running.url);
      const owner = await db.user.create({ data: { name: "Embedded", email: "embedded@example.test" } });
      const session = await createChatSession(db, owner.id, "Survives a restart");
      await db.$disconnect();
      await running.close();
      running = undefined;
      await expect(readFile(lockPath, "utf8")).rejects.toMatchObject({ code: "ENOENT" });

      running = await startEmbeddedPostgres(dataDir);
      expect(await applyMigrations(running.url)).toEqual([]);
      const reopened = createDbClient(running.url);
      try {
        expect(await listChatSessions(reopened, owner.id)).toEqual([session]);
        expect(await reopened.user.findUnique({ where: { id: owner.id } })).toMatchObject({ name: "Embedded" });
      } finally {
        await reopened.$disconnect();
        await running.close();
        running = undefined;
      }
    },
    SLOW,
  );

  it(
    "refuses a folder whose lock is held by another live process",
    async () => {
      const dataDir = path.join(tempRoot, "locked");
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, "pglite.lock"), "1");
      await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(/in use by process 1/);
      expect(await readFile(path.join(dataDir, "pglite.lock"), "utf8")).toBe("1");
    },
    SLOW,
  );

  it(
    "takes over a lock left behind by a process that is gone",
    async () => {
      const dataDir = path.join(tempRoot, "stale");
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, "pglite.lock"), String(2 ** 22 + 1));
      running = await startEmbeddedPostgres(dataDir);
      expect(await readFile(path.join(dataDir, "pglite.lock"), "utf8")).toBe(String(process.pid));
      await running.close();
      running = undefined;
    },
    SLOW,
  );
});
