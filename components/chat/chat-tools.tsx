"use client";
// The chat's tools at a glance and on demand. The summary chip in the composer's row says what the
// next message gets ("2 connectors · 14 tools · revision 7", with "pending" while a change waits for
// Apply now) and opens the Tools panel: docked beside the conversation on wide screens (lg and up;
// it stays open, the chat stays usable, and the choice is remembered), a bottom sheet on narrower
// ones. A chat page opened with the panel open has it in its server-rendered HTML.
import { memo, useCallback, useSyncExternalStore } from "react";

import {
  ConnectorPanel,
  pendingChangeKey,
  type ConnectorPanelProps,
} from "@/components/connectors/connector-panel.tsx";
import { useToolsSummary } from "@/components/connectors/use-tools-state.ts";
import { WrenchIcon } from "@/components/ui/icons.tsx";
import { Sheet, SheetContent } from "@/components/ui/sheet.tsx";
import { useMediaQuery } from "@/components/ui/use-media-query.ts";

import { isToolsOpenIn, toolsOpenCookie } from "./tools-open-cookie.ts";

const WIDE = "(min-width: 1024px)";
const OPEN_EVENT = "patchbay-tools-open-change";

function subscribeOpen(onChange: () => void): () => void {
  window.addEventListener(OPEN_EVENT, onChange);
  return () => window.removeEventListener(OPEN_EVENT, onChange);
}

/** The cookie as this page last read or wrote it (reading document.cookie on every render is not free). */
let isOpenHere: boolean | null = null;
const readOpen = () => (isOpenHere ??= isToolsOpenIn(document.cookie));

/**
 * Whether the Tools panel is open; remembered in a cookie (tools-open-cookie.ts) so moving between
 * chats and reloading keep it, and the server renders the page with it. `initialOpen` is what the
 * server read from the same cookie (it renders and hydrates with that).
 */
export function useToolsPanelOpen(initialOpen: boolean): [boolean, (isOpen: boolean) => void] {
  const isOpen = useSyncExternalStore(subscribeOpen, readOpen, () => initialOpen);
  const setOpen = useCallback((next: boolean) => {
    isOpenHere = next;
    document.cookie = toolsOpenCookie(next);
    window.dispatchEvent(new Event(OPEN_EVENT));
  }, []);
  return [isOpen, setOpen];
}

type ChipProps = ConnectorPanelProps & { isOpen: boolean; onOpenChange: (isOpen: boolean) => void };

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Chip and panel skip the chat's streaming re-renders (props compared field by field; `streaming`
 * by its turn and revision), so a streaming answer does not redraw the tools.
 */
function areToolPropsEqual(prev: ChipProps, next: ChipProps): boolean {
  return (
    prev.sessionId === next.sessionId &&
    prev.toolsRevision === next.toolsRevision &&
    prev.streaming?.turnId === next.streaming?.turnId &&
    prev.streaming?.revision === next.streaming?.revision &&
    prev.keptChange === next.keptChange &&
    prev.onKeepChange === next.onKeepChange &&
    prev.isOpen === next.isOpen &&
    prev.onOpenChange === next.onOpenChange
  );
}

function SummaryChip({ isOpen, onOpenChange, ...props }: ChipProps) {
  const { summary } = useToolsSummary(props.sessionId, props.toolsRevision);
  const pendingKey = pendingChangeKey(props.streaming, summary.revision);
  const isPending = pendingKey !== null && pendingKey !== props.keptChange;
  const { counts } = summary;
  const countsText = counts
    ? `${plural(counts.connectorCount, "connector")} · ${plural(counts.toolCount, "tool")} · `
    : "";
  return (
    <button
      type="button"
      aria-expanded={isOpen}
      aria-label={`Tools: ${countsText}revision ${summary.revision}${isPending ? " · change pending" : ""}`}
      onClick={() => onOpenChange(!isOpen)}
      className="inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-full border border-zinc-300 px-2.5 py-1 text-xs text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
      data-testid="tools-summary"
    >
      <WrenchIcon className="size-3.5 shrink-0" />
      <span className="truncate">
        {countsText}
        <span data-testid="tools-revision">revision {summary.revision}</span>
      </span>
      {isPending && (
        <span className="rounded-full bg-amber-100 px-1.5 text-amber-900 dark:bg-amber-900 dark:text-amber-100">
          pending
        </span>
      )}
    </button>
  );
}

/** The open panel: a docked column on wide screens, a bottom sheet below that. */
function ToolsPanel({ isOpen, onOpenChange, ...props }: ChipProps) {
  const isWide = useMediaQuery(WIDE, true);
  if (isWide)
    return isOpen ? (
      <div className="sticky top-4 flex h-[calc(100dvh-6rem)] w-80 shrink-0 flex-col self-start rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <ConnectorPanel {...props} onClose={() => onOpenChange(false)} />
      </div>
    ) : null;
  return (
    <Sheet open={isOpen} onOpenChange={onOpenChange}>
      <SheetContent side="bottom" width="full" title="Tools for this chat" className="h-[85dvh] p-3">
        <ConnectorPanel {...props} />
      </SheetContent>
    </Sheet>
  );
}

export const ToolsSummaryChip = memo(SummaryChip, areToolPropsEqual);
export const ChatToolsPanel = memo(ToolsPanel, areToolPropsEqual);
