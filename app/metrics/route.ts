// GET /metrics: the Prometheus scrape, for the operator. Needs `Authorization: Bearer
// <METRICS_TOKEN>`: 401 without it or with a wrong one; 404 when METRICS_TOKEN is unset (the endpoint
// is off). Everyone's figures (server/metrics/prometheus.ts). The metrics page is /metrics-view.
import { env } from "@/server/env.ts";
import { getPool } from "@/server/db/client.ts";
import { toResponse } from "@/server/errors.ts";
import { hasMetricsToken } from "@/server/metrics/metrics-token.ts";
import { readPrometheusText } from "@/server/metrics/prometheus.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const token = env.METRICS_TOKEN;
  if (!token) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain" } });
  if (!hasMetricsToken(request.headers.get("authorization"), token)) {
    return new Response("Unauthorized\n", {
      status: 401,
      headers: { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  try {
    const text = await readPrometheusText(await getPool());
    return new Response(text, {
      headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" },
    });
  } catch (error) {
    return toResponse(error, "GET /metrics");
  }
}
