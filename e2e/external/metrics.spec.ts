// The metrics page and the Prometheus scrape against the production build: tool calls made in a chat
// (the fake provider calls the tools the message names) show in the charts and the table; the Tool
// filter narrows every figure to one tool (and the page passes an axe scan); the CSV export follows the filters; GET /metrics answers
// 401 without or with a wrong bearer token and, with METRICS_TOKEN, text a Prometheus parser reads.
import AxeBuilder from "@axe-core/playwright";

import { E2E_METRICS_TOKEN } from "../support/config.ts";
import { MetricsPage } from "../pages/metrics-page.ts";
import { expect, test } from "../support/fixtures.ts";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text.ts";
import { saveScreenshot } from "../support/screenshots.ts";

const TIME_TOOL = "builtin.current_time";
const SUM_TOOL = "everything.get-sum";

test("the metrics page charts tool calls and filters them to one tool", async ({ page, chat }) => {
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.send('use tool builtin_current_time {"timezone":"UTC"}');
  await chat.expectLastAnswerDone();
  await chat.send('use tool everything_get-sum {"a":2,"b":3}');
  await chat.expectLastAnswerDone();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Metrics" }).click();
  const metrics = new MetricsPage(page);
  await expect(page).toHaveURL(/\/metrics-view$/);
  await expect(metrics.toolTable).toBeVisible();
  await expect.poll(() => metrics.toolNames()).toEqual(expect.arrayContaining([TIME_TOOL, SUM_TOOL]));
  for (const chart of ["chart-latency", "chart-success", "chart-tokens"]) {
    await expect(metrics.chart(chart).locator("svg.recharts-surface").first()).toBeVisible();
  }
  const allBars = await metrics.bars("chart-success").count();
  expect(allBars).toBeGreaterThanOrEqual(2);

  await metrics.filterBy("Tool", TIME_TOOL);
  await expect.poll(() => metrics.toolNames()).toEqual([TIME_TOOL]);
  await expect(metrics.bars("chart-success")).toHaveCount(1);
  const row = metrics.toolRows().first();
  await expect(row).toContainText("builtin");
  await expect(row.locator("td").nth(3)).toHaveText("100.0 %");
  await saveScreenshot(page, "metrics-one-tool");
  const { violations } = await new AxeBuilder({ page }).include("main").analyze();
  expect(
    violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? "")).map((v) => v.id),
  ).toEqual([]);

  // The table sorts by a column's header; the CSV follows the filters.
  await metrics.filterBy("Tool", "");
  await expect.poll(() => metrics.toolNames()).toEqual(expect.arrayContaining([TIME_TOOL, SUM_TOOL]));
  await metrics.toolTable.getByRole("button", { name: "Tool", exact: true }).click();
  const names = await metrics.toolNames();
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  const csv = await page.request.get(`/metrics-view/export?days=30&tool=${encodeURIComponent(SUM_TOOL)}`);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trimEnd().split("\r\n");
  expect(lines.filter((line) => line.startsWith("tool,"))).toEqual([
    expect.stringContaining(`,everything,${SUM_TOOL},`),
  ]);
});

test.describe("GET /metrics", () => {
  test.use({ account: null });

  test("answers 401 without or with a wrong token", async ({ request }) => {
    const none = await request.get("/metrics");
    expect(none.status()).toBe(401);
    expect(none.headers()["www-authenticate"]).toContain("Bearer");
    const wrong = await request.get("/metrics", { headers: { Authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status()).toBe(401);
    expect(await wrong.text()).not.toContain("patchbay_");
  });

  test("scrapes in the Prometheus text format with the token", async ({ request }) => {
    const response = await request.get("/metrics", { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain; version=0.0.4");
    const families = parsePrometheusText(await response.text());
    const names = families.map((family) => family.name);
    for (const name of [
      "patchbay_turns_total",
      "patchbay_model_requests_total",
      "patchbay_tokens_total",
      "patchbay_tool_calls_total",
      "patchbay_stream_lag_seconds",
    ]) {
      expect(names).toContain(name);
    }
    expect(families.find((family) => family.name === "patchbay_tool_calls_total")?.type).toBe("COUNTER");
    expect(sampleValue(families, "patchbay_stream_lag_seconds")).toBeGreaterThanOrEqual(0);
  });
});
