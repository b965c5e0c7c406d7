"use client";
// The chat's tools as the browser sees them. `useToolsSummary` keeps the unfiltered list (the
// composer's summary chip reads it, with or without the panel open) in step with the chat's
// revision: an event that moved the revision past the list's reloads it. `useToolSearch` is the
// panel's search: the typed text filters the loaded tools at once, and, a moment later, the server
// searches every tool (a connector sends at most 50), keeping the previous answer meanwhile.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { PanelToolsDto } from "@/server/api/routers/tool-bulk.ts";

/** Pause after the last keystroke before the server searches. */
const SEARCH_DEBOUNCE_MS = 200;

/** Counts are null until the chat's tools have loaded. */
export type ToolsSummary = { counts: { connectorCount: number; toolCount: number } | null; revision: number };

export function summarizeTools(data: PanelToolsDto | undefined, toolsRevision: number): ToolsSummary {
  const usable = data?.connectors.filter((connector) => connector.enabled && !connector.conflict) ?? [];
  const connectorTools = usable.reduce((sum, connector) => sum + connector.enabledCount, 0);
  const counts = data
    ? {
        connectorCount: usable.length,
        toolCount: connectorTools + data.builtinTools.filter((tool) => tool.enabled).length,
      }
    : null;
  return { counts, revision: Math.max(toolsRevision, data?.revision ?? 0) };
}

export function useRefreshTools(sessionId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.tools.state.queryKey({ sessionId }) });
}

export function useToolsSummary(sessionId: string, toolsRevision: number) {
  const trpc = useTRPC();
  const state = useQuery(trpc.tools.state.queryOptions({ sessionId }));
  const refresh = useRefreshTools(sessionId);
  const loadedRevision = state.data?.revision;
  useEffect(() => {
    if (loadedRevision !== undefined && toolsRevision > loadedRevision) void refresh();
  }, [toolsRevision, loadedRevision]); // eslint-disable-line react-hooks/exhaustive-deps
  return { state, summary: summarizeTools(state.data, toolsRevision) };
}

export function useToolSearch(sessionId: string) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const state = useQuery({
    ...trpc.tools.state.queryOptions(query ? { sessionId, query } : { sessionId }),
    placeholderData: keepPreviousData,
  });
  return { state, search, setSearch };
}
