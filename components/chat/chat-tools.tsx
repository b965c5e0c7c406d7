"use client";
// Where a chat's Tools panel lives: a column beside the conversation on wide screens (lg and up),
// a "Tools" button in the chat's toolbar opening it in a sheet below that. The button shows when a
// change is pending for the streaming answer (and not kept for its next request), since the panel
// itself is out of sight.
import { ConnectorPanel, pendingChangeKey } from "@/components/connectors/connector-panel.tsx";
import { Button } from "@/components/ui/button.tsx";
import { WrenchIcon } from "@/components/ui/icons.tsx";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/sheet.tsx";
import { useMediaQuery } from "@/components/ui/use-media-query.ts";

type Props = {
  sessionId: string;
  toolsRevision: number;
  streaming: { turnId: string; revision: number | null } | null;
  keptChange: string | null;
  onKeepChange: (key: string | null) => void;
};

const WIDE = "(min-width: 1024px)";

/** The panel as a column; renders nothing on narrow screens. */
export function ChatToolsColumn(props: Props) {
  const isWide = useMediaQuery(WIDE, true);
  if (!isWide) return null;
  return (
    <div className="w-80 shrink-0 self-start lg:sticky lg:top-4">
      <ConnectorPanel {...props} />
    </div>
  );
}

/** The toolbar button and sheet; renders nothing on wide screens. */
export function ChatToolsSheet(props: Props) {
  const isWide = useMediaQuery(WIDE, true);
  if (isWide) return null;
  const pendingKey = pendingChangeKey(props.streaming, props.toolsRevision);
  const isPending = pendingKey !== null && pendingKey !== props.keptChange;
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="secondary" className="px-2 py-1.5">
          <WrenchIcon />
          Tools
          {isPending && <span className="text-xs text-amber-700 dark:text-amber-300">· pending</span>}
        </Button>
      </SheetTrigger>
      <SheetContent side="right" title="Tools for this chat" className="p-3">
        <ConnectorPanel {...props} />
      </SheetContent>
    </Sheet>
  );
}
