// Personas consulted as sub-agents, for each provider, against real parts: Postgres, the `fixture` and
// `extra` MCP connectors over stdio behind the real registry, the session manager and the strict
// fake provider (it refuses every request the real API would refuse). (a) A chat calls a persona,
// whose nested run calls an MCP tool and answers: its final text is the call's result, its run is
// stored with its requests (revision, exact tool names: never a sub-agent, only what its allowlist
// admits of the chat's tools). (b) Apply now while the nested run's tool runs: the run is
// cancelled, the turn superseded, and the restarted turn's sub-agent sees the new tools. (c) A
// persona on Gemini under a chat on Anthropic. (d) Stop cancels the nested run and its running tool.
// (e) A read-only persona only gets tools marked read-only, and an `ask` tool inside it waits for
// the user's approval.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exposeToolName } from "../core/tool-names.ts";
import { startConnectorBed, type ConnectorBed } from "../../e2e/support/testbeds/connector-bed.ts";
import { fakeIdFor, TEST_MODELS, waitFor, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import { decideApproval } from "../policy/approvals.ts";
import { createPersona, type SubAgentSettings } from "../policy/personas.ts";
import type { SubAgentRequest } from "./sub-agent-store.ts";

let bed: ConnectorBed;

beforeAll(async () => {
  bed = await startConnectorBed();
});

afterAll(async () => {
  await bed.close();
});

const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });
const REVIEWER = exposeToolName("persona.reviewer");

function expectNoInvalidRequest() {
  const refused = bed.fake.requests().filter((request) => request.status === 400);
  expect(refused.map((request) => `${request.path}: ${request.error}`)).toEqual([]);
}

async function chatWithReviewer(settings: Partial<SubAgentSettings> = {}, allowlist = ["fixture.*", "extra.*"]) {
  const chat = await bed.chatWithFixture();
  await createPersona(bed.deps, chat.userId, {
    name: "Reviewer",
    systemPrompt: "SUB-AGENT PROMPT: review carefully.",
    toolAllowlist: allowlist,
    subAgent: { model: null, maxSteps: null, timeoutSec: null, isReadOnly: false, ...settings },
  });
  const snapshot = await bed.registry.snapshot(chat.sessionId);
  expect(snapshot.tools.map((tool) => tool.exposedName)).toContain(REVIEWER);
  return { ...chat, revision: snapshot.revision };
}

function runOf(turnId: string) {
  return waitFor(
    () => bed.database.db.subAgentRun.findFirst({ where: { turnId } }),
    (run) => !!run && run.status !== "running",
  );
}

function toolResultsOf(turnId: string) {
  return bed.database.db.message
    .findMany({ where: { turnId, role: "tool" } })
    .then((rows) => rows.flatMap((row) => row.parts as { name: string; output: unknown; isError: boolean }[]));
}

describe.each(providerIds)("sub-agents on %s", (provider) => {
  const fakeId = fakeIdFor(provider);

  it("a chat consults a persona, whose nested run calls an MCP tool; its final text is the result", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, revision, echo, slow } = await chatWithReviewer();
    fake.clear();
    bed.calls.length = 0;
    fake.script(fakeId, {
      steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Check it", context: "ctx-7" } }],
    });
    fake.script(fakeId, { steps: [{ type: "tool-call", name: echo, args: { text: "nested-echo" } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "Reviewed: all good." }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "The reviewer says it is fine." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Ask the reviewer", choice(provider));
    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    expect(bed.calls).toEqual(["fixture.echo"]); // the persona call never reaches the registry

    const [result] = await toolResultsOf(turnId);
    expect(result).toMatchObject({ name: "persona.reviewer", output: "Reviewed: all good.", isError: false });
    const run = (await runOf(turnId))!;
    expect(run).toMatchObject({ status: "completed", personaName: "Reviewer", provider, stepCount: 2 });
    const requests = run.requests as SubAgentRequest[];
    expect(requests.map((request) => request.toolsRevision)).toEqual([revision, revision]);
    expect(requests[0]!.toolNames).toContain(echo);
    expect(requests[0]!.toolNames).toContain(slow);
    expect(requests[0]!.toolNames).not.toContain(REVIEWER); // depth 1
    expect(requests[0]!.toolNames.some((name) => name.startsWith("builtin"))).toBe(false); // outside its allowlist

    const bodies = fake.requests(fakeId).map((request) => JSON.stringify(request.body));
    expect(bodies).toHaveLength(4);
    expect(bodies[1]).toContain("SUB-AGENT PROMPT");
    expect(bodies[1]).toContain("ctx-7");
    expect(bodies[1]).not.toContain("Ask the reviewer"); // the sub-agent does not see the chat
    expect(bodies[2]).toContain("nested-echo");
    expect(bodies[3]).toContain("Reviewed: all good.");
    expectNoInvalidRequest();
  });

  it("apply now while the nested run's tool runs: cancelled, and the restarted turn's sub-agent has the new tools", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, revision, slow } = await chatWithReviewer();
    fake.clear();
    fake.script(fakeId, { steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Wait" } }] });
    fake.script(fakeId, { steps: [{ type: "tool-call", name: slow, args: { ms: 4321, steps: 4 } }] });
    fake.script(fakeId, { steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Again" } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "Done with the extra tools." }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "Final answer." }] });

    const first = await manager.startTurn(userId, sessionId, "Consult slowly", choice(provider));
    await waitFor(
      () => Promise.resolve(bed.calls.includes("fixture.slow")),
      (isRunning) => isRunning,
    );
    const revisionNow = await bed.setConnector(userId, sessionId, "extra", true);
    expect(revisionNow).toBe(revision + 1);
    const restarted = await manager.applyNow(userId, first.turnId);

    expect((await waitForTurnEnd(database.db, restarted.turnId)).status).toBe("completed");
    expect((await database.db.turn.findUniqueOrThrow({ where: { id: first.turnId } })).status).toBe("superseded");
    expect((await runOf(first.turnId))!.status).toBe("cancelled");
    const again = (await runOf(restarted.turnId))!;
    expect(again.status).toBe("completed");
    const [request] = again.requests as SubAgentRequest[];
    expect(request!.toolsRevision).toBe(revisionNow);
    expect(request!.toolNames.some((name) => name.startsWith("extra_"))).toBe(true);
    const [result] = await toolResultsOf(restarted.turnId);
    expect(result).toMatchObject({ name: "persona.reviewer", output: "Done with the extra tools." });
    expectNoInvalidRequest();
  });
});

describe("sub-agents across providers and policies", () => {
  it("a persona on Gemini answers a chat on Anthropic", async () => {
    const { fake, manager, database } = bed;
    const model = { provider: "google" as const, model: TEST_MODELS.google, accountId: null };
    const { userId, sessionId, echo } = await chatWithReviewer({ model });
    fake.clear();
    fake.script("anthropic", { steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Echo it" } }] });
    fake.script("google", { steps: [{ type: "tool-call", name: echo, args: { text: "from-gemini" } }] });
    fake.script("google", { steps: [{ type: "text", text: "Gemini reviewed it." }] });
    fake.script("anthropic", { steps: [{ type: "text", text: "Claude relays the review." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Cross providers", choice("anthropic"));
    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    expect(await runOf(turnId)).toMatchObject({ status: "completed", provider: "google", stepCount: 2 });
    expect(fake.requests("google")).toHaveLength(2);
    expect(fake.requests("anthropic")).toHaveLength(2);
    expect(JSON.stringify(fake.requests("anthropic")[1]!.body)).toContain("Gemini reviewed it.");
    expectNoInvalidRequest();
  });

  it("Stop while the nested run's tool runs cancels the run and its tool, and ends the turn", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, slow } = await chatWithReviewer();
    fake.clear();
    bed.calls.length = 0;
    fake.script("google", { steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Wait long" } }] });
    fake.script("google", { steps: [{ type: "tool-call", name: slow, args: { ms: 20_000, steps: 4 } }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Consult, then stop", choice("google"));
    await waitFor(
      () => Promise.resolve(bed.calls.includes("fixture.slow")),
      (isRunning) => isRunning,
    );
    const started = Date.now();
    await manager.cancel(userId, turnId);
    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(4_500); // before the 5 s tool timeout: cancelled, not timed out
    expect((await runOf(turnId))!.status).toBe("cancelled");
    expect(fake.requests("google")).toHaveLength(2); // no request after the stop
    expectNoInvalidRequest();
  });

  it("a read-only persona only gets read-only tools, and an ask tool inside it waits for the user", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, echo, slow } = await chatWithReviewer({ isReadOnly: true });
    await bed.askBefore(userId, sessionId, "echo");
    fake.clear();
    fake.script("openai", { steps: [{ type: "tool-call", name: REVIEWER, args: { task: "Read only" } }] });
    fake.script("openai", { steps: [{ type: "tool-call", name: echo, args: { text: "approved-echo" } }] });
    fake.script("openai", { steps: [{ type: "text", text: "Read and done." }] });
    fake.script("openai", { steps: [{ type: "text", text: "Relayed." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Careful", choice("openai"));
    const approval = await waitFor(
      () => database.db.toolApproval.findFirst({ where: { turnId } }),
      (row) => !!row,
    );
    expect(approval).toMatchObject({ toolName: "fixture.echo", status: "pending" });
    const nestedCall = await database.db.subAgentRun.findFirstOrThrow({ where: { turnId } });
    expect(JSON.stringify(nestedCall.messages)).toContain(approval!.callId); // the nested call is the one asking
    await decideApproval(database.db, userId, { approvalId: approval!.id }, "approve");

    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    const run = (await runOf(turnId))!;
    const [request] = run.requests as SubAgentRequest[];
    expect(request!.toolNames).toEqual([echo]); // slow is not marked read-only
    expect(request!.toolNames).not.toContain(slow);
    expect(JSON.stringify(run.messages)).toContain("approved-echo");
    expectNoInvalidRequest();
  });
});
