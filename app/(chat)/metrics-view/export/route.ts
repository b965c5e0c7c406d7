// GET /metrics-view/export?days=&model=&connector=&tool=&chatId=: the metrics page's figures as CSV,
// for the signed-in user's scope (their chats; everyone's for an admin), with the page's filters.
import { getSessionUser } from "@/server/auth/session.ts";
import { getDb } from "@/server/db/client.ts";
import { AppError, toResponse } from "@/server/errors.ts";
import { reportToCsv } from "@/server/metrics/csv.ts";
import { metricsFilterSchema } from "@/server/metrics/filter.ts";
import { readMetricsView } from "@/server/metrics/metrics-view.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const user = await getSessionUser();
    if (!user) throw new AppError("unauthorized:auth");
    const params = Object.fromEntries(new URL(request.url).searchParams);
    const filter = metricsFilterSchema.parse({ ...params, days: Number(params.days ?? 30) });
    const view = await readMetricsView(await getDb(), user, filter);
    const day = new Date().toISOString().slice(0, 10);
    return new Response(reportToCsv(view.report), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="patchbay-metrics-${day}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return toResponse(error, "GET /metrics-view/export");
  }
}
