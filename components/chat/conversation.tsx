"use client";
// The conversation: each user message followed by the turns that answered it (exchange.tsx). A
// message replaced by an edit is shown collapsed with its answers, above the edited one, the way a
// restarted turn sits collapsed above its replacement ("Restarted with revision N"). Only the last
// message may be edited, never mid-answer; only the last turn offers Try again when it failed. A page opened (or
// reloaded) while an answer streams lands scrolled to that live answer, at the end, and follows it
// as it grows until the reader scrolls away; "Jump to latest" brings them back while it streams.
// It reads the chat's state from context (chat-store.ts), so a streamed chunk re-renders
// the conversation and not the page around it; exchanges and turns are memoised, so only the live
// one re-renders. A long chat opens on its latest exchanges; the earlier ones render as the reader
// scrolls up to them (exchange-window.tsx). The exchanges are laid out as blocks: a column flexbox
// of a few hundred items made the browser lay them all out again for every chunk.
import { memo, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";

import { Button } from "@/components/ui/button.tsx";
import { ArrowDownIcon } from "@/components/ui/icons.tsx";
import { useLatestCallback } from "@/components/ui/use-latest-callback.ts";

import { findStreamingTurn } from "./chat-state.ts";
import { useChatState } from "./chat-store.ts";
import { Exchange } from "./exchange.tsx";
import { EarlierExchanges, useExchangeWindow } from "./exchange-window.tsx";

type Props = {
  /** Edits the last user message; absent while editing is not possible (an answer is streaming). */
  onEdit?: (messageId: string, text: string) => Promise<boolean> | undefined;
  /** Answers the last turn's message again; absent while that is not possible. */
  onRetry?: (turnId: string) => void;
};

/** Within this many pixels of the page's end, the reader counts as following the live answer. */
const FOLLOW_SLACK_PX = 120;

function isAtPageEnd(): boolean {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - FOLLOW_SLACK_PX;
}

/**
 * A page opened while an answer streams lands on that live answer (scrolls to the page's end, where
 * it sits just above the composer), and stays there as it grows while the reader stays at the end.
 * Scrolling up stops the following and, while the answer streams, offers "Jump to latest", which
 * goes back to the end and follows again. The page follows when the conversation's size changes
 * (a ResizeObserver: after the browser's layout, so reading the page's height costs nothing), not
 * after each streamed chunk (that forced a layout of the page per chunk).
 */
function useFollowLiveAnswer(isStreaming: boolean, conversation: RefObject<HTMLElement | null>) {
  const isFollowing = useRef<boolean | null>(null); // null until the first render decided
  // Where the page itself last put the scroll position: its own scrolls report scroll events later,
  // in a frame where the answer may already have grown below, and must not count as the reader's.
  const ownScrollY = useRef<number | null>(null);
  const [isAway, setIsAway] = useState(false);
  const scrollToEnd = useCallback(() => {
    window.scrollTo({ top: document.documentElement.scrollHeight });
    ownScrollY.current = window.scrollY;
  }, []);
  useEffect(() => {
    const onScroll = () => {
      if (isFollowing.current === null || window.scrollY === ownScrollY.current) return;
      isFollowing.current = isAtPageEnd();
      setIsAway(!isFollowing.current);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  useEffect(() => {
    if (isFollowing.current === null) {
      isFollowing.current = isStreaming;
      ownScrollY.current = window.scrollY; // where the page opened (exchange-window.tsx lands it)
    }
    const element = conversation.current;
    if (!isStreaming || !element) return;
    const follow = new ResizeObserver(() => {
      if (isFollowing.current) scrollToEnd();
    });
    follow.observe(element); // also reports the size it has now: a page opened mid-answer lands
    return () => follow.disconnect();
  }, [isStreaming, conversation, scrollToEnd]);
  const jumpToLatest = () => {
    isFollowing.current = true;
    setIsAway(false);
    scrollToEnd();
  };
  return { isJumpShown: isStreaming && isAway, jumpToLatest };
}

function JumpToLatest({ onJump }: { onJump: () => void }) {
  return (
    <div className="pointer-events-none sticky bottom-40 z-10 flex justify-center">
      <Button variant="secondary" className="pointer-events-auto rounded-full py-1 text-xs shadow-md" onClick={onJump}>
        <ArrowDownIcon className="size-3.5" />
        Jump to latest
      </Button>
    </div>
  );
}

const NO_ITEMS: never[] = [];

/** Items grouped by a key in one pass, keeping their order and identity (memoised rows compare them). */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | null | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (!key) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Memoised (its callbacks keep their identity): the page around it re-renders as its queries load
 * without rendering the conversation again, and, on a server-rendered page, without making React
 * hydrate it ahead of the composer (chat-view.tsx).
 */
export const Conversation = memo(function Conversation({ onEdit: editNow, onRetry: retryNow }: Props) {
  const state = useChatState();
  const section = useRef<HTMLElement | null>(null);
  const { isJumpShown, jumpToLatest } = useFollowLiveAnswer(!!findStreamingTurn(state), section);
  const edit = useLatestCallback(editNow);
  const onEdit = useCallback(async (messageId: string, text: string) => (await edit(messageId, text)) === true, [edit]);
  const onRetry = useLatestCallback(retryNow);
  const { messages, turns } = state;
  const userMessages = useMemo(() => messages.filter((message) => message.role === "user"), [messages]);
  const exchangeWindow = useExchangeWindow(userMessages.length);
  const lastId = userMessages.filter((message) => !message.replacedBy).at(-1)?.id;
  const retryTurnId = retryNow ? (turns.at(-1)?.id ?? null) : null;
  const turnsByMessage = useMemo(() => groupBy(turns, (turn) => turn.userMessageId), [turns]);
  const messagesByTurn = useMemo(() => groupBy(messages, (message) => message.turnId), [messages]);
  const { toolResults, toolProgress, approvals, subAgents, questions, limitNotes } = state;
  const records = useMemo(
    () => ({ toolResults, toolProgress, approvals, subAgents, questions, limitNotes }),
    [toolResults, toolProgress, approvals, subAgents, questions, limitNotes],
  );

  return (
    <section ref={section} aria-label="Conversation" className="flex-1 space-y-4">
      <EarlierExchanges window={exchangeWindow} />
      {userMessages.slice(exchangeWindow.hiddenCount).map((message) => {
        const answers = turnsByMessage.get(message.id) ?? NO_ITEMS;
        return (
          <Exchange
            key={message.id}
            message={message}
            turns={answers}
            turnMessages={answers.map((turn) => messagesByTurn.get(turn.id) ?? NO_ITEMS)}
            allTurns={turns}
            records={records}
            canEdit={!!editNow && message.id === lastId}
            retryTurnId={answers.some((turn) => turn.id === retryTurnId) ? retryTurnId : null}
            isLast={message.id === lastId}
            onEdit={onEdit}
            onRetry={onRetry}
          />
        );
      })}
      {isJumpShown && <JumpToLatest onJump={jumpToLatest} />}
    </section>
  );
});
