// The `questions` router: the user's answer to a question the model asked with
// builtin.ask_followup_question. The turn waiting on it (on whichever app instance) picks the answer
// up and goes on. Only the chat's owner may answer; a question is answered once, and never after its
// turn ended (server/policy/followup-questions.ts).
import { z } from "zod";

import { answerQuestion, MAX_ANSWER_CHARS } from "../../policy/followup-questions.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const questionsRouter = createTRPCRouter({
  answer: protectedProcedure
    .input(
      z.object({
        questionId: z.string().min(1).max(64),
        answer: z.string().trim().min(1, { error: "Write an answer first." }).max(MAX_ANSWER_CHARS),
      }),
    )
    .mutation(({ ctx, input }) => answerQuestion(ctx.db, ctx.user.id, input.questionId, input.answer)),
});
