"use client";
// The metrics page: which tools and models work. Filters (period, model, connector, tool, chat) drive
// one `metrics.view` query; the charts and the tables show the same figures, and the CSV link
// exports them with the same filters. A user sees their own chats; an admin everyone's.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { SettingsSection } from "@/components/ui/settings-section.tsx";

import { MetricsCharts } from "./metrics-charts.tsx";
import { MetricsFilters, type MetricsFilterState } from "./metrics-filters.tsx";
import { ModelTable, ToolTable } from "./metrics-tables.tsx";

const initial: MetricsFilterState = { days: 30, model: "", connector: "", tool: "", chatId: "" };

/** The filter as the API takes it: empty choices left out. */
function toInput(filter: MetricsFilterState) {
  return {
    days: filter.days,
    ...(filter.model && { model: filter.model }),
    ...(filter.connector && { connector: filter.connector }),
    ...(filter.tool && { tool: filter.tool }),
    ...(filter.chatId && { chatId: filter.chatId }),
  };
}

export function MetricsPage() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState(initial);
  const input = toInput(filter);
  const view = useQuery({ ...trpc.metrics.view.queryOptions(input), placeholderData: keepPreviousData });
  const csv = `/metrics-view/export?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)])).toString()}`;
  const scope = view.data?.isEveryone ? "everyone's chats (you are an admin)" : "your own chats";
  return (
    <SettingsSection
      id="metrics-title"
      title="Metrics"
      intro={`Which tools and models work: tool calls, success and error rates, latency, tokens and turns, over ${scope}. Latency percentiles are estimated from a histogram (within about 30 %).`}
      error={view.error ? view.error.message : null}
    >
      <MetricsFilters value={filter} choices={view.data?.choices} onChange={setFilter} />
      <p className="text-sm">
        <a href={csv} className="underline underline-offset-2" download>
          Download CSV
        </a>
      </p>
      {view.data && (
        <div className="flex flex-col gap-6" aria-busy={view.isFetching}>
          <MetricsCharts report={view.data.report} />
          <ToolTable rows={view.data.report.tools} />
          <ModelTable rows={view.data.report.models} />
        </div>
      )}
    </SettingsSection>
  );
}
