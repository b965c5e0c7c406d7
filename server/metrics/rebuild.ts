// Recomputes the metrics roll-ups from the stored rows: what the `tool_metrics` migration ran for the
// rows stored before it, in one transaction. For the benchmark (bench/metrics.ts), which seeds rows
// with the triggers off, and for repairs. The roll-ups are analysed afterwards, so the report's plans
// see the new row counts at once instead of after autovacuum's next pass.
import type { SqlPool } from "../db/client.ts";

export async function rebuildMetrics(pool: SqlPool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(`DELETE FROM "ToolCallDaily"`);
    await client.query(`DELETE FROM "TurnDaily"`);
    await client.query(`SELECT metrics_add_tool_calls(ARRAY(SELECT id FROM "Message" WHERE role = 'tool'))`);
    await client.query(`SELECT metrics_add_turns(ARRAY(SELECT id FROM "Turn" WHERE "endedAt" IS NOT NULL))`);
    await client.query("COMMIT");
    await client.query(`ANALYZE "ToolCallDaily", "TurnDaily"`);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
