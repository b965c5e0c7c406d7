// A transaction of raw SQL on one connection of a `pg` pool, for hot paths that keep off Prisma's
// interactive transactions (their per-statement cost is paid on every call). `work` runs between
// BEGIN and COMMIT; anything it throws rolls the transaction back and is rethrown as is. A
// connection that fails meanwhile (its error event, a failed ROLLBACK) is discarded, not returned
// to the pool; its error reaches the caller through the statement that failed, never as an
// unhandled event.
import type pg from "pg";

export async function inSqlTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(onError);
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}
