// The embedded Postgres: PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
// protocol on a loopback port, so Patchbay talks to it through the same `pg` adapter and the same
// migrations as a real server. Used only when DATABASE_URL is unset. Data lives in one folder; a
// lock file keeps a second process from opening the same folder (PGlite is single-process).
import { mkdir, open, readFile, rm } from "node:fs/promises";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedPostgres = { url: string; close(): Promise<void> };

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function acquireLock(lockPath: string): Promise<void> {
  const existing = await readFile(lockPath, "utf8").catch(() => undefined);
  const holder = Number.parseInt(existing ?? "", 10);
  if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
    throw new Error(
      `The embedded database in ${path.dirname(lockPath)} is in use by process ${holder}. ` +
        "Stop it, or set PATCHBAY_DATA_DIR to another folder, or set DATABASE_URL.",
    );
  }
  const handle = await open(lockPath, "w");
  await handle.writeFile(String(process.pid));
  await handle.close();
}

/** Opens (creating if needed) the database in `<dataDir>/pglite` and serves it on 127.0.0.1. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const folder = path.resolve(dataDir, "pglite");
  await mkdir(folder, { recursive: true });
  const lockPath = path.join(path.resolve(dataDir), "pglite.lock");
  await acquireLock(lockPath);
  const db = await PGlite.create(folder);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 16 });
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    close: async () => {
      await server.stop();
      await db.close();
      await rm(lockPath, { force: true });
    },
  };
}
