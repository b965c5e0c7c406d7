"use client";
// The conversation: each user message followed by the turns that answered it. A message replaced
// by an edit is shown collapsed with its answers, above the edited one, the way a restarted turn
// sits collapsed above its replacement ("Restarted with revision N"). Only the last message may be
// edited, never mid-answer; only the last turn offers Try again when it failed. A page opened (or
// reloaded) while an answer streams lands scrolled to that live answer, at the end, and follows it
// as it grows until the reader scrolls away; "Jump to latest" brings them back while it streams.
// Turns and user messages are memoised: while an answer streams only the live one re-renders.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";

import { ExcludableMessage } from "@/components/overlays/excludable-message.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ArrowDownIcon } from "@/components/ui/icons.tsx";

import { findStreamingTurn, type ChatState } from "./chat-state.ts";
import { supersededLabel } from "./superseded-label.ts";
import { TurnView } from "./turn-view.tsx";
import { UserMessage } from "./user-message.tsx";

type Props = {
  state: ChatState;
  /** Edits the last user message; absent while editing is not possible (an answer is streaming). */
  onEdit?: (messageId: string, text: string) => Promise<boolean>;
  /** Answers the last turn's message again; absent while that is not possible. */
  onRetry?: (turnId: string) => void;
};

function textOf(message: ChatState["messages"][number]): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Within this many pixels of the page's end, the reader counts as following the live answer. */
const FOLLOW_SLACK_PX = 120;

function isAtPageEnd(): boolean {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - FOLLOW_SLACK_PX;
}

/**
 * A page opened while an answer streams lands on that live answer (scrolls to the page's end, where
 * it sits just above the composer), and stays there as it grows while the reader stays at the end.
 * Scrolling up stops the following and, while the answer streams, offers "Jump to latest", which
 * goes back to the end and follows again.
 */
function useFollowLiveAnswer(isStreaming: boolean, content: unknown) {
  const isFollowing = useRef<boolean | null>(null); // null until the first render decided
  const [isAway, setIsAway] = useState(false);
  useEffect(() => {
    const onScroll = () => {
      if (isFollowing.current === null) return;
      isFollowing.current = isAtPageEnd();
      setIsAway(!isFollowing.current);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  useEffect(() => {
    if (isFollowing.current === null) isFollowing.current = isStreaming;
    if (isStreaming && isFollowing.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [isStreaming, content]);
  const jumpToLatest = () => {
    isFollowing.current = true;
    setIsAway(false);
    window.scrollTo({ top: document.documentElement.scrollHeight });
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

/** A callback that keeps its identity and always calls the latest `handler` (memoised rows keep theirs). */
function useLatestCallback<A extends unknown[], R>(handler: ((...args: A) => R) | undefined) {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current?.(...args), []);
}

export function Conversation({ state, onEdit: editNow, onRetry: retryNow }: Props) {
  const { isJumpShown, jumpToLatest } = useFollowLiveAnswer(!!findStreamingTurn(state), state.messages);
  const edit = useLatestCallback(editNow);
  const retry = useLatestCallback(retryNow);
  const onEdit = editNow && (async (messageId: string, text: string) => (await edit(messageId, text)) === true);
  const onRetry = retryNow && retry;
  const userMessages = state.messages.filter((message) => message.role === "user");
  const lastId = userMessages.filter((message) => !message.replacedBy).at(-1)?.id;
  const lastTurnId = state.turns.at(-1)?.id;
  const turnsByMessage = useMemo(() => groupBy(state.turns, (turn) => turn.userMessageId), [state.turns]);
  const messagesByTurn = useMemo(() => groupBy(state.messages, (message) => message.turnId), [state.messages]);
  const turnsOf = (messageId: string, label?: string) =>
    (turnsByMessage.get(messageId) ?? NO_ITEMS).map((turn) => (
      <TurnView
        key={turn.id}
        turn={turn}
        messages={messagesByTurn.get(turn.id) ?? NO_ITEMS}
        toolResults={state.toolResults}
        toolProgress={state.toolProgress}
        approvals={state.approvals}
        subAgents={state.subAgents}
        questions={state.questions}
        limitNotes={state.limitNotes[turn.id] ?? []}
        supersededLabel={label ?? supersededLabel(turn, state.turns)}
        onRetry={onRetry && turn.id === lastTurnId ? () => onRetry(turn.id) : undefined}
      />
    ));

  return (
    <section aria-label="Conversation" className="flex flex-1 flex-col gap-4">
      {userMessages.map((message) =>
        message.replacedBy ? (
          <details
            key={message.id}
            className="rounded-md border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
            data-testid="replaced-message"
          >
            <summary className="cursor-pointer">Edited — the earlier version of this message</summary>
            <div className="mt-2 flex flex-col gap-2 opacity-80">
              <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{textOf(message)}</p>
              {turnsOf(message.id, "Its answer")}
            </div>
          </details>
        ) : (
          <div key={message.id} className="flex flex-col gap-3">
            <ExcludableMessage messageId={message.id} canExclude={message.id !== lastId} align="end">
              <UserMessage
                text={textOf(message)}
                onEdit={onEdit && message.id === lastId ? (text) => onEdit(message.id, text) : undefined}
              />
            </ExcludableMessage>
            {turnsOf(message.id)}
          </div>
        ),
      )}
      {isJumpShown && <JumpToLatest onJump={jumpToLatest} />}
    </section>
  );
}
