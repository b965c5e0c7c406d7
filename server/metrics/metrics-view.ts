// What the metrics page shows a signed-in user: the report for their scope (their own chats, or
// everyone's for an admin) and the choices its filters offer.
import { poolOf, type Db } from "../db/client.ts";
import type { MetricsFilter } from "./filter.ts";
import { readMetricsReport, type MetricsReport } from "./report.ts";
import { metricsScopeFor } from "./scope.ts";
import { listChoices } from "./sql.ts";

export type MetricsView = {
  isEveryone: boolean;
  report: MetricsReport;
  choices: { models: string[]; connectors: string[]; tools: string[]; chats: { id: string; title: string }[] };
};

export async function readMetricsView(
  db: Db,
  user: { id: string; email: string | null },
  filter: MetricsFilter,
): Promise<MetricsView> {
  const pool = poolOf(db);
  const query = { ...filter, ...metricsScopeFor(user) };
  const [report, choices] = await Promise.all([readMetricsReport(pool, query), listChoices(pool, query, user.id)]);
  return { isEveryone: query.ownerId === null, report, choices };
}
