// Another app instance answering a followup question: `tsx e2e/support/testbeds/answer-process.ts <json>`
// with { databaseUrl, ownerId, questionId, answer } writes the answer through its own database client
// (so the waiting turn can only learn of it through Postgres: NOTIFY or its poll), prints
// {"status": …} on stdout and exits. It does what the `questions.answer` procedure does on whichever
// instance receives the user's click.
import { createDbClient } from "../../../server/db/client.ts";
import { answerQuestion } from "../../../server/policy/followup-questions.ts";

type Args = { databaseUrl: string; ownerId: string; questionId: string; answer: string };

const args = JSON.parse(process.argv[2] ?? "{}") as Args;
const db = createDbClient(args.databaseUrl);
const question = await answerQuestion(db, args.ownerId, args.questionId, args.answer);
process.stdout.write(`${JSON.stringify({ status: question.status })}\n`);
await db.$disconnect();
