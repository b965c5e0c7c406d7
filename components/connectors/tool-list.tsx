"use client";
// The Tools panel's list: every connector's header and, while it is expanded and on, its tools, as
// one virtualised list (@tanstack/react-virtual), so a thousand tools cost the DOM only the rows in
// view. Rows are measured as they render: names and notes wrap. The list scrolls inside the panel.
// The list and its rows are memoised (the callbacks they get keep their identity): typing in the
// search re-renders the search box at once and the list a moment later (connector-panel.tsx), and a
// row that did not change is not rendered again.
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useRef } from "react";

import type { PanelConnectorDto } from "@/server/api/routers/tool-bulk.ts";
import type { SessionToolDto } from "@/server/mcp/session-tools.ts";

import { ConnectorItem, type ConnectorActions } from "./connector-item.tsx";
import { ConnectorToolRow } from "./connector-tool-row.tsx";
import { searchTextOf } from "./tool-search-text.ts";

export type ToolListRow =
  | { kind: "connector"; connector: PanelConnectorDto; shownCount: number }
  | { kind: "tool"; connector: PanelConnectorDto; tool: SessionToolDto };

/** Case-insensitive match on a tool's name or description, like the server's search. */
export function matchesTool(tool: SessionToolDto, query: string): boolean {
  const needle = query.trim().toLowerCase();
  return !needle || searchTextOf(tool).includes(needle);
}

/**
 * The rows to show: each connector, then its tools matching `query` while it is on and expanded. A
 * search expands every connector with a match (it is what the user is looking for).
 */
export function buildRows(
  connectors: PanelConnectorDto[],
  query: string,
  expanded: ReadonlySet<string>,
): ToolListRow[] {
  return connectors.flatMap((connector): ToolListRow[] => {
    const tools = connector.enabled ? connector.tools.filter((tool) => matchesTool(tool, query)) : [];
    const header: ToolListRow = { kind: "connector", connector, shownCount: tools.length };
    const isOpen = expanded.has(connector.id) || (query.trim() !== "" && tools.length > 0);
    return isOpen ? [header, ...tools.map((tool) => ({ kind: "tool" as const, connector, tool }))] : [header];
  });
}

type Props = {
  rows: ToolListRow[];
  expanded: ReadonlySet<string>;
  onExpandedChange: (connectorId: string, isExpanded: boolean) => void;
  isBusy: boolean;
  query: string;
  accountStatus: (connectorId: string) => "connected" | "needs_authorization" | undefined;
  actions: ConnectorActions;
};

function rowKey(row: ToolListRow): string {
  return row.kind === "connector" ? `c:${row.connector.id}` : `t:${row.connector.id}/${row.tool.name}`;
}

export const ToolList = memo(function ToolList(props: Props) {
  const { rows, expanded, onExpandedChange, isBusy, query, accountStatus, actions } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind === "connector" ? 44 : 34),
    getItemKey: (index) => rowKey(rows[index]!),
    overscan: 20,
  });
  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto" data-testid="tool-list">
      <div
        role="list"
        aria-label="Connectors and tools"
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row.kind === "connector" ? (
                <ConnectorItem
                  connector={row.connector}
                  accountStatus={accountStatus(row.connector.id)}
                  isBusy={isBusy}
                  isExpanded={rows[item.index + 1]?.kind === "tool" || expanded.has(row.connector.id)}
                  onExpandedChange={onExpandedChange}
                  actions={actions}
                  query={query}
                  shownCount={row.shownCount}
                />
              ) : (
                <ConnectorToolRow
                  connectorId={row.connector.id}
                  connectorName={row.connector.name}
                  tool={row.tool}
                  isBusy={isBusy}
                  onEnabledChange={actions.setToolEnabled}
                  onPolicyChange={actions.setToolPolicy}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
});
