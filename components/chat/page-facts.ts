// What the chat page around the conversation shows of the chat's state (chat-view.tsx): the title,
// persona, revisions and the streaming turn with its last request's revisions. A streamed chunk
// changes none of them, so `selectPageFacts` (memoised, chat-store.ts) then gives the same object
// and the page does not re-render; only the conversation does.
import type { ChatState } from "./chat-state.ts";
import { findStreamingTurn } from "./chat-state.ts";
import { memoizeSelector } from "./chat-store.ts";

export type PageFacts = {
  title: string;
  personaId: string | null;
  toolsRevision: number;
  overlayRevision: number;
  streamingTurnId: string | null;
  streamingToolsRevision: number | null;
  streamingOverlayRevision: number | null;
};

export function pageFactsOf(state: ChatState | null): PageFacts | null {
  if (!state) return null;
  const streaming = findStreamingTurn(state);
  const lastRequest = streaming?.requests.at(-1);
  return {
    title: state.title,
    personaId: state.personaId,
    toolsRevision: state.toolsRevision,
    overlayRevision: state.overlayRevision,
    streamingTurnId: streaming?.id ?? null,
    streamingToolsRevision: lastRequest?.toolsRevision ?? null,
    streamingOverlayRevision: lastRequest?.overlayRevision ?? null,
  };
}

export const selectPageFacts = memoizeSelector(pageFactsOf);
