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
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, owned by another user
  }
}

/** Takes the folder's lock atomically; a lock left by a process that is gone is taken over. */
async function acquireLock(lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number.parseInt((await readFile(lockPath, "utf8").catch(() => "")).trim(), 10);
    if (Number.isInteger(holder) && holder > 0 && isProcessAlive(holder)) {
      throw new Error(
        `The embedded database in ${path.dirname(lockPath)} is in use by process ${holder}. ` +
          "Stop it, or set PATCHBAY_DATA_DIR to another folder, or set DATABASE_URL.",
      );
    }
    await rm(lockPath, { force: true });
  }
  throw new Error(`Could not lock the embedded database at ${lockPath}.`);
}

/** The URLs this process serves an embedded database on (process-wide: Next.js may load this module twice). */
const servedUrls: Set<string> = ((globalThis as { patchbayEmbeddedUrls?: Set<string> }).patchbayEmbeddedUrls ??=
  new Set());

/**
 * Whether `url` is an embedded database of this process. Its socket server puts every connection on
 * the one PGlite backend, so what a connection leaves in its session (a prepared statement's name)
 * is seen by the others (statements.ts).
 */
export function isEmbeddedUrl(url: string): boolean {
  return servedUrls.has(url);
}

/** Opens (creating if needed) the database in `<dataDir>/pglite` and serves it on 127.0.0.1. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const folder = path.resolve(dataDir, "pglite");
  await mkdir(folder, { recursive: true });
  const lockPath = path.join(path.resolve(dataDir), "pglite.lock");
  await acquireLock(lockPath);
  let db: PGlite | undefined;
  let server: PGLiteSocketServer;
  try {
    db = await PGlite.create(folder);
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 16 });
    await server.start();
  } catch (error) {
    await db?.close().catch(() => undefined);
    await rm(lockPath, { force: true });
    throw error;
  }
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  servedUrls.add(url);
  return {
    url,
    close: async () => {
      servedUrls.delete(url);
      await server.stop();
      await db.close();
      await rm(lockPath, { force: true });
    },
  };
}
