"use client";
// The chat page's body: the conversation (user messages, each followed by the turns that answered
// it), the composer with Stop, Regenerate for the last answer, and the model and persona pickers.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { ConnectorPanel } from "@/components/connectors/connector-panel.tsx";
import { Button } from "@/components/ui/button.tsx";

import { findStreamingTurn } from "./chat-state.ts";
import { Composer } from "./composer.tsx";
import { ModelPicker, type ModelChoice } from "./model-picker.tsx";
import { PersonaPicker } from "./persona-picker.tsx";
import { TurnView } from "./turn-view.tsx";
import { useChat } from "./use-chat.ts";

export function ChatView({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const { state, history } = useChat(sessionId);
  const providers = useQuery(trpc.chat.providers.queryOptions());
  const [picked, setPicked] = useState<ModelChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(trpc.chat.send.mutationOptions());
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const restart = useMutation(trpc.chat.restart.mutationOptions());

  if (history.isError)
    return (
      <p role="alert" className="p-6 text-red-700">
        {history.error.message}
      </p>
    );
  if (!state || !history.data) return <p className="p-6 text-sm text-zinc-500">Loading…</p>;

  const session = history.data.session;
  const fallback = providers.data?.[0];
  const saved =
    session.provider && session.model ? ({ provider: session.provider, model: session.model } as ModelChoice) : null;
  const choice = picked ?? saved ?? (fallback?.models[0] ? { provider: fallback.id, model: fallback.models[0] } : null);
  const streaming = findStreamingTurn(state);
  const lastTurn = state.turns.at(-1);
  const onError = (e: { message: string }) => setError(e.message);

  async function onSend(text: string): Promise<boolean> {
    setError(null);
    try {
      await send.mutateAsync({ sessionId, text, choice: choice ?? undefined });
      return true;
    } catch (e) {
      onError(e as Error);
      return false;
    }
  }

  const streamingRevision = streaming?.requests.at(-1)?.toolsRevision ?? null;
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-4 px-4 py-4 md:flex-row md:items-start">
      <main className="flex min-w-0 flex-1 flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Link href="/" className="text-sm text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
            ← All chats
          </Link>
          <div className="flex flex-wrap items-center gap-3">
            <PersonaPicker sessionId={sessionId} value={state.personaId} />
            <ModelPicker value={choice} onChange={setPicked} />
          </div>
        </div>
        <h1 className="text-xl font-semibold">{state.title}</h1>
        <section aria-label="Conversation" className="flex flex-1 flex-col gap-4">
          {state.messages
            .filter((message) => message.role === "user")
            .map((message) => (
              <div key={message.id} className="flex flex-col gap-3">
                <p
                  className="self-end whitespace-pre-wrap rounded-lg bg-zinc-100 px-3 py-2 dark:bg-zinc-800"
                  data-testid="user-message"
                >
                  {message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")}
                </p>
                {state.turns
                  .filter((turn) => turn.userMessageId === message.id)
                  .map((turn) => (
                    <TurnView
                      key={turn.id}
                      turn={turn}
                      messages={state.messages.filter((m) => m.turnId === turn.id)}
                      toolResults={state.toolResults}
                      toolProgress={state.toolProgress}
                      approvals={state.approvals}
                      limitNotes={state.limitNotes[turn.id] ?? []}
                    />
                  ))}
              </div>
            ))}
        </section>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        {lastTurn && !streaming && lastTurn.status !== "superseded" && (
          <div>
            <Button
              variant="ghost"
              onClick={() => restart.mutate({ turnId: lastTurn.id, choice: choice ?? undefined }, { onError })}
            >
              Regenerate
            </Button>
          </div>
        )}
        <div className="sticky bottom-0 bg-white pb-2 dark:bg-zinc-950">
          <Composer
            isStreaming={!!streaming}
            isSending={send.isPending}
            onSend={onSend}
            onStop={() => streaming && cancel.mutate({ turnId: streaming.id }, { onError })}
          />
        </div>
      </main>
      <div className="md:sticky md:top-4 md:w-80">
        <ConnectorPanel
          sessionId={sessionId}
          toolsRevision={state.toolsRevision}
          streaming={streaming ? { turnId: streaming.id, revision: streamingRevision } : null}
        />
      </div>
    </div>
  );
}
