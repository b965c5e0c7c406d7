// `ask` tools end to end: Postgres, the MCP fixture behind the real registry, the fake provider and
// the session manager. The turn pauses on a pending approval; approving runs the call and the model
// gets its result, denying gives the model the denial; cancel and restart end a waiting turn from
// another manager instance; a decision written by another process unblocks the turn; and nobody but
// the chat's owner can decide.
import { spawn } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCaller } from "../api/root.ts";
import { getSessionHistory } from "../session/history.ts";
import { createTestUser } from "../../e2e/support/testbeds/database.ts";
import { sessionMessages, waitFor, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import { ANTHROPIC, createPolicyTestbed, type PolicyTestbed } from "../../e2e/support/testbeds/policy-testbed.ts";
import { decideApproval } from "./approvals.ts";
import { setConnectorPolicy, setToolPolicy } from "./connector-policy.ts";

let bed: PolicyTestbed;

beforeAll(async () => {
  bed = await createPolicyTestbed();
});

afterAll(async () => {
  await bed.close();
});

type ToolResult = { callId: string; isError: boolean; output: unknown };

/** A chat whose fixture.echo asks first, a scripted echo call and answer, and the started turn. */
async function turnWithAskingEcho(text: string, name = "Asker") {
  const { userId, sessionId } = await bed.chatWithFixture(name);
  const policy = { sessionId, connectorId: bed.connectorId };
  await setToolPolicy(bed.deps, userId, { ...policy, toolName: "echo", policy: "ask" });
  const echo = (await bed.tool(sessionId, "fixture.echo"))!;
  bed.fake.clear();
  bed.fake.script("anthropic", { steps: [{ type: "tool-call", name: echo.exposedName, args: { text } }] });
  bed.fake.script("anthropic", { steps: [{ type: "text", text: "Done." }] });
  const { turnId } = await bed.manager.startTurn(userId, sessionId, "Echo something", ANTHROPIC);
  const asked = await bed.event(turnId, "tool.approval");
  return { userId, sessionId, turnId, approvalId: String(asked.approvalId), asked };
}

async function toolResults(sessionId: string): Promise<ToolResult[]> {
  const tool = (await sessionMessages(bed.db, sessionId)).find((message) => message.role === "tool");
  return (tool?.parts ?? []) as ToolResult[];
}

describe("an ask tool", () => {
  it("pauses the turn until approved, then runs the call and sends the model its result", async () => {
    const { userId, sessionId, turnId, approvalId, asked } = await turnWithAskingEcho("approved text");
    expect((await bed.tool(sessionId, "fixture.echo"))!.policy).toBe("ask");
    expect((await bed.tool(sessionId, "builtin.current_time"))!.policy).toBe("allow");
    expect(asked).toMatchObject({ name: "fixture.echo", args: { text: "approved text" } });

    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await bed.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("streaming");
    expect(await toolResults(sessionId)).toEqual([]);
    expect(bed.fake.requests("anthropic")).toHaveLength(1);
    const history = await getSessionHistory(bed.db, userId, sessionId);
    expect(history.approvals).toMatchObject([{ id: approvalId, turnId, status: "pending", toolName: "fixture.echo" }]);

    const decided = await decideApproval(bed.db, userId, { approvalId }, "approve");
    expect(decided.status).toBe("approved");
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect(await toolResults(sessionId)).toMatchObject([
      { callId: asked.callId, isError: false, output: "approved text" },
    ]);
    expect(JSON.stringify(bed.fake.requests("anthropic")[1]!.body)).toContain("approved text");
    expect(await bed.event(turnId, "tool.approval.decided")).toMatchObject({ approvalId, status: "approved" });
    const row = await bed.db.toolApproval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(row).toMatchObject({ status: "approved", decidedBy: userId });
    expect(row.decidedAt).toBeInstanceOf(Date);
  });

  it("gives the model the denial as the call's result when denied, and the turn completes", async () => {
    const { userId, sessionId } = await bed.chatWithFixture("Denier");
    await setConnectorPolicy(bed.deps, userId, { sessionId, connectorId: bed.connectorId, policy: "ask" });
    const echo = (await bed.tool(sessionId, "fixture.echo"))!;
    expect(echo.policy).toBe("ask"); // from the connector's policy
    bed.fake.clear();
    bed.fake.script("anthropic", { steps: [{ type: "tool-call", name: echo.exposedName, args: { text: "secret" } }] });
    bed.fake.script("anthropic", { steps: [{ type: "text", text: "Understood, not echoing." }] });
    const { turnId } = await bed.manager.startTurn(userId, sessionId, "Echo secret", ANTHROPIC);
    const asked = await bed.event(turnId, "tool.approval");

    await decideApproval(bed.db, userId, { turnId, callId: String(asked.callId) }, "deny");
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    const [result] = await toolResults(sessionId);
    expect(result).toMatchObject({
      isError: true,
      output: { error: { code: "denied", message: "The user denied this tool call." } },
    });
    const followUp = JSON.stringify(bed.fake.requests("anthropic")[1]!.body);
    expect(followUp).toContain("The user denied this tool call.");
    expect(await bed.event(turnId, "tool.approval.decided")).toMatchObject({ status: "denied" });
  });
});

describe("a turn waiting for approval", () => {
  it("is cancelled from another manager instance, and its approval expires", async () => {
    const { userId, sessionId, turnId, approvalId } = await turnWithAskingEcho("never", "Canceller");
    expect(bed.manager.isRunningHere(turnId)).toBe(true);

    await bed.second.cancel(userId, turnId);
    expect((await bed.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("cancelled");
    await waitFor(
      () => Promise.resolve(bed.manager.isRunningHere(turnId)),
      (isRunning) => !isRunning,
    );
    expect(await toolResults(sessionId)).toEqual([]);
    expect(bed.fake.requests("anthropic")).toHaveLength(1);
    expect((await bed.db.toolApproval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe("expired");
    await expect(decideApproval(bed.db, userId, { approvalId }, "approve")).rejects.toMatchObject({
      code: "conflict:approval",
    });
    const history = await getSessionHistory(bed.db, userId, sessionId);
    expect(history.approvals).toMatchObject([{ id: approvalId, status: "expired" }]);
    expect(history.session.activeTurnId).toBeNull();
  });

  it("is restarted from another manager instance; the new turn asks again", async () => {
    const { userId, sessionId, turnId, approvalId } = await turnWithAskingEcho("again", "Restarter");
    const echo = (await bed.tool(sessionId, "fixture.echo"))!;
    bed.fake.clear(); // drops the first turn's unused answer
    bed.fake.script("anthropic", { steps: [{ type: "tool-call", name: echo.exposedName, args: { text: "again" } }] });
    bed.fake.script("anthropic", { steps: [{ type: "text", text: "Echoed again." }] });

    const restarted = await bed.second.restart(userId, turnId);
    expect((await bed.db.toolApproval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe("expired");
    const asked = await bed.event(restarted.turnId, "tool.approval");
    expect(bed.second.isRunningHere(restarted.turnId)).toBe(true);
    await decideApproval(bed.db, userId, { approvalId: String(asked.approvalId) }, "approve");
    expect((await waitForTurnEnd(bed.db, restarted.turnId)).status).toBe("completed");
    expect((await bed.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("superseded");
    const results = (await sessionMessages(bed.db, sessionId)).filter((m) => m.turnId === restarted.turnId);
    expect(results.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
  });

  it("is unblocked by a decision another app process writes", async () => {
    const { userId, sessionId, turnId, approvalId } = await turnWithAskingEcho("from afar", "Remote");
    const args = { databaseUrl: bed.database.url, ownerId: userId, approvalId, decision: "approve" };
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "e2e/support/testbeds/decide-process.ts", JSON.stringify(args)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(JSON.parse(output)).toEqual({ status: "approved" });

    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect(await toolResults(sessionId)).toMatchObject([{ isError: false, output: "from afar" }]);
  });
});

describe("who may decide", () => {
  it("only the chat's owner; for anyone else the approval does not exist", async () => {
    const { userId, sessionId, turnId, approvalId, asked } = await turnWithAskingEcho("mine", "Owner");
    const mallory = await createTestUser(bed.db, "Mallory");
    const caller = createCaller({ db: bed.db, user: { ...mallory, image: null } });

    await expect(caller.policy.decideApproval({ approvalId, decision: "approve" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      cause: { code: "not_found:approval" },
    });
    await expect(
      decideApproval(bed.db, mallory.id, { turnId, callId: String(asked.callId) }, "deny"),
    ).rejects.toMatchObject({ code: "not_found:approval" });
    await expect(getSessionHistory(bed.db, mallory.id, sessionId)).rejects.toMatchObject({
      code: "not_found:session",
    });
    expect((await bed.db.toolApproval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe("pending");

    const owner = createCaller({ db: bed.db, user: { id: userId, name: "Owner", email: null, image: null } });
    expect(await owner.policy.decideApproval({ approvalId, decision: "approve" })).toMatchObject({
      status: "approved",
    });
    expect(await owner.policy.decideApproval({ approvalId, decision: "approve" })).toMatchObject({
      status: "approved",
    });
    await expect(owner.policy.decideApproval({ approvalId, decision: "deny" })).rejects.toMatchObject({
      code: "CONFLICT",
      cause: { code: "conflict:approval" },
    });
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
  });
});
