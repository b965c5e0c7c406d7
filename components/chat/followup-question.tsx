"use client";
// A question the model asked the user (builtin.ask_followup_question), in place of a tool card: the
// question, its suggested answers as buttons and a free-text answer. The answer is stored on the
// server, so whichever app instance runs the turn picks it up and the turn goes on; after a reload
// the pending question is shown again from the chat's history. Once answered it shows the answer;
// once its turn ended unanswered (Stop, Apply now) it says so and can no longer be answered.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";

import type { QuestionView } from "./chat-state.ts";

type Props = {
  /** The stored question; undefined while the call is still being written. */
  question: QuestionView | undefined;
  args: unknown;
  turnStatus: string;
};

type Shown = "asking" | "pending" | "answered" | "expired";

function questionOf(args: unknown): { question: string; options: string[] } {
  const { question, options } = (args ?? {}) as { question?: unknown; options?: unknown };
  return {
    question: typeof question === "string" ? question : "",
    options: Array.isArray(options) ? options.filter((option) => typeof option === "string") : [],
  };
}

function shownStatus(question: QuestionView | undefined, turnStatus: string, answer: string | null): Shown {
  if (answer !== null || question?.status === "answered") return "answered";
  if (turnStatus !== "streaming" || question?.status === "expired") return "expired";
  return question ? "pending" : "asking";
}

function AnswerForm({
  options,
  isPending,
  onAnswer,
}: {
  options: string[];
  isPending: boolean;
  onAnswer: (answer: string) => void;
}) {
  const [text, setText] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) onAnswer(text.trim());
  };
  return (
    <div className="flex flex-col gap-2">
      {options.length > 0 && (
        <div className="flex flex-wrap gap-2" role="group" aria-label="Suggested answers">
          {options.map((option) => (
            <Button key={option} variant="secondary" disabled={isPending} onClick={() => onAnswer(option)}>
              {option}
            </Button>
          ))}
        </div>
      )}
      <form className="flex gap-2" onSubmit={submit}>
        <input
          aria-label="Your answer"
          placeholder="Or type your answer…"
          value={text}
          onChange={(event) => setText(event.target.value)}
          disabled={isPending}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" disabled={isPending || !text.trim()}>
          Answer
        </Button>
      </form>
    </div>
  );
}

export function FollowupQuestion({ question, args, turnStatus }: Props) {
  const trpc = useTRPC();
  const answer = useMutation(trpc.questions.answer.mutationOptions());
  const asked = question ?? { ...questionOf(args), answer: null };
  // The answer shows as soon as the server stored it; the event confirming it follows.
  const answered = question?.answer ?? answer.data?.answer ?? null;
  const status = shownStatus(question, turnStatus, answered);
  const onAnswer = (text: string) => question && answer.mutate({ questionId: question.questionId, answer: text });
  return (
    <section
      aria-label="Question from the assistant"
      className="my-2 flex w-full flex-col gap-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
      data-testid="followup-question"
      data-status={status}
    >
      <p className="whitespace-pre-wrap font-medium">{asked.question}</p>
      {status === "pending" && <AnswerForm options={asked.options} isPending={answer.isPending} onAnswer={onAnswer} />}
      {status === "answered" && (
        <p data-testid="followup-answer">
          <span className="text-sky-800 dark:text-sky-300">You answered: </span>
          {answered}
        </p>
      )}
      {status === "expired" && (
        <p className="text-zinc-600 dark:text-zinc-400">Not answered: this answer was stopped or restarted.</p>
      )}
      {answer.error && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {answer.error.message}
        </p>
      )}
    </section>
  );
}
