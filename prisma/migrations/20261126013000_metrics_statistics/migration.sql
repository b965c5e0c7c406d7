-- Plans for the metrics report (server/metrics/sql.ts), which groups the roll-ups by tool,
-- connector, provider and model:
-- - Postgres assumes those columns are independent and guesses tens of thousands of groups where a
--   team has hundreds, so it sorted every row (spilling to disk) instead of hashing them.
--   Multi-column statistics tell it how many groups there really are. ANALYZE fills them here and
--   autovacuum keeps them current afterwards.
-- - A report reads some thousands of rows, three queries at once. Parallel workers only added their
--   start-up and gather time on a small busy machine (measured: 225 ms with, 130 ms without), so
--   scans of the roll-ups stay in the one backend.
-- (No semicolons in these comments: the migration runner splits the file on them.)
CREATE STATISTICS "ToolCallDaily_groups" (ndistinct, dependencies)
  ON "toolName", connector, provider, model FROM "ToolCallDaily";
CREATE STATISTICS "TurnDaily_groups" (ndistinct, dependencies) ON provider, model FROM "TurnDaily";
ALTER TABLE "ToolCallDaily" SET (parallel_workers = 0);
ALTER TABLE "TurnDaily" SET (parallel_workers = 0);
ANALYZE "ToolCallDaily";
ANALYZE "TurnDaily";
