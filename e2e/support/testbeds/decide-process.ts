// Another app instance deciding a tool approval: `tsx e2e/support/testbeds/decide-process.ts <json>` with
// { databaseUrl, ownerId, approvalId, decision } writes the decision through its own database client
// (so the waiting turn can only learn of it through Postgres: NOTIFY or its poll), prints
// {"status": …} on stdout and exits. It does what the `policy.decideApproval` procedure does on
// whichever instance receives the user's click.
import { createDbClient } from "../../../server/db/client.ts";
import { decideApproval, type ApprovalDecision } from "../../../server/policy/approvals.ts";

type Args = { databaseUrl: string; ownerId: string; approvalId: string; decision: ApprovalDecision };

const args = JSON.parse(process.argv[2] ?? "{}") as Args;
const db = createDbClient(args.databaseUrl);
const approval = await decideApproval(db, args.ownerId, { approvalId: args.approvalId }, args.decision);
process.stdout.write(`${JSON.stringify({ status: approval.status })}\n`);
await db.$disconnect();
