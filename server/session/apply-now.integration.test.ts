// Mid-turn tool changes against real parts, for each provider: Postgres, two admin connectors running
// our MCP fixture over stdio behind the real registry, the session manager, the real AI SDK providers
// and the fake provider, which refuses (400) every request the real API would refuse — tool names and
// schemas, and message / tool-call ordering. (a) A connector switched while a slow turn streams shows
// up in the turn's next request, after its tool round, on revision N+1. (b) Apply now while a tool
// call is running, or after its result was recorded, supersedes the turn and restarts it on the
// latest revision: the restarted turn keeps the finished round (its call and result) and drops the
// running call (marked cancelled) and any text after the round, so its first request is valid and
// never shows a call without its result. More cases in apply-now-kept.integration.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exposeToolName } from "../core/tool-names.ts";
import { startConnectorBed, type ConnectorBed } from "../../e2e/support/testbeds/connector-bed.ts";
import { fakeIdFor, TEST_MODELS, waitFor, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
let bed: ConnectorBed;

beforeAll(async () => {
  bed = await startConnectorBed();
});

afterAll(async () => {
  await bed.close();
});

const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });

function firstEvent(turnId: string, type: string) {
  return waitFor(
    () => bed.database.db.sessionEvent.findFirst({ where: { turnId, type } }),
    (event) => !!event,
  );
}

function turnRequests(turnId: string) {
  return bed.database.db.turnRequest.findMany({ where: { turnId }, orderBy: { index: "asc" } });
}

/** The function tools a recorded request declares, whatever its wire format. */
function declaredTools(body: unknown): string[] {
  const tools = ((body as { tools?: Record<string, unknown>[] }).tools ?? []).flatMap(
    (tool) => (tool.functionDeclarations as { name: string }[] | undefined) ?? [tool],
  );
  return tools.map((tool) => (tool.function as { name: string } | undefined)?.name ?? (tool.name as string)).sort();
}

/** No request the fake received was one the real API would refuse (the reasons, when there are). */
function expectNoInvalidRequest() {
  const { fake } = bed;
  const refused = fake.requests().filter((request) => request.status === 400);
  expect(refused.map((request) => `${request.path}: ${request.error}`)).toEqual([]);
  expect(fake.requests().every((request) => request.status !== 400)).toBe(true);
}

describe.each(providerIds)("mid-turn tool changes on %s", (provider) => {
  const fakeId = fakeIdFor(provider);

  it("a connector switched off while the turn streams is gone from its next request, on revision N+1", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, revision, slow } = await bed.chatWithFixture();
    fake.clear();
    fake.script(fakeId, {
      steps: [
        { type: "text", text: "Let me wait for it. ".repeat(12), chunkSize: 6 },
        { type: "tool-call", name: slow, args: { ms: 30, steps: 1 } },
      ],
      delayMs: 15,
    });
    fake.script(fakeId, { steps: [{ type: "text", text: "Done waiting." }] });

    const { turnId } = await manager.startTurn(userId, sessionId, "Wait a little", choice(provider));
    await firstEvent(turnId, "text.delta");
    expect(await bed.setConnector(userId, sessionId, "fixture", false)).toBe(revision + 1);
    expect(fake.requests(fakeId)).toHaveLength(1); // switched while the first response was still streaming

    expect((await waitForTurnEnd(database.db, turnId)).status).toBe("completed");
    const requests = await turnRequests(turnId);
    expect(requests.map((request) => request.toolsRevision)).toEqual([revision, revision + 1]);
    const [before, after] = requests.map((request) => request.toolNames as string[]);
    expect(before).toContain(slow);
    expect(after).not.toContain(slow);
    expect(after).toContain(TIME_TOOL);
    expect(before!.length).toBeGreaterThan(after!.length);

    const [firstBody, secondBody] = fake.requests(fakeId).map((request) => request.body);
    expect(declaredTools(firstBody)).toEqual([...before!].sort());
    expect(declaredTools(secondBody)).toEqual([...after!].sort()); // what the model was shown, as recorded
    expect(JSON.stringify(secondBody)).toContain(slow); // the history still holds the call and its result
    expect(await database.db.message.count({ where: { turnId, role: "tool" } })).toBe(1);
    expectNoInvalidRequest();
  });

  it("apply now while a tool call runs: superseded, restarted on N+1 without the call, marked cancelled", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, revision, slow } = await bed.chatWithFixture();
    fake.clear();
    fake.script(fakeId, { steps: [{ type: "tool-call", name: slow, args: { ms: 4321, steps: 4 } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "Restarted with the extra tools." }] });

    const first = await manager.startTurn(userId, sessionId, "Wait a long time", choice(provider));
    await firstEvent(first.turnId, "tool.call");
    expect(await database.db.message.count({ where: { turnId: first.turnId, role: "tool" } })).toBe(0); // pending
    const revisionNow = await bed.setConnector(userId, sessionId, "extra", true);
    expect(revisionNow).toBe(revision + 1);
    const restarted = await manager.applyNow(userId, first.turnId);

    await expectRestartedOn(first.turnId, restarted.turnId, revisionNow);
    const bodies = fake.requests(fakeId).map((request) => JSON.stringify(request.body));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toContain("extra_");
    expect(bodies[1]).not.toMatch(/ms\\?":4321\b/); // the superseded turn's call is not in the restarted request
    const settled = await database.db.message.findMany({ where: { turnId: first.turnId, role: "tool" } });
    expect(settled.flatMap((message) => message.parts as object[])).toMatchObject([
      { isError: true, output: { error: { code: "cancelled" } } },
    ]);
    expectNoInvalidRequest();
  });

  it("apply now after the tool result was recorded, while the follow-up streams: the round is kept, the text cut", async () => {
    const { fake, manager, database } = bed;
    const { userId, sessionId, revision, slow } = await bed.chatWithFixture();
    fake.clear();
    bed.calls.length = 0;
    fake.script(fakeId, { steps: [{ type: "tool-call", name: slow, args: { ms: 173, steps: 1 } }] });
    fake.script(fakeId, { steps: [{ type: "text", text: "stale ".repeat(200), chunkSize: 4 }], delayMs: 20 });
    fake.script(fakeId, { steps: [{ type: "text", text: "Restarted with the extra tools." }] });

    const first = await manager.startTurn(userId, sessionId, "Wait, then answer", choice(provider));
    await waitFor(
      () => database.db.message.count({ where: { turnId: first.turnId, role: "tool" } }),
      (count) => count === 1,
    );
    await waitFor(
      () => Promise.resolve(fake.requests(fakeId).length),
      (count) => count === 2,
    );
    await firstEvent(first.turnId, "text.delta");
    const revisionNow = await bed.setConnector(userId, sessionId, "extra", true);
    expect(revisionNow).toBe(revision + 1);
    const restarted = await manager.applyNow(userId, first.turnId);

    await expectRestartedOn(first.turnId, restarted.turnId, revisionNow);
    const requests = fake.requests(fakeId);
    expect(requests).toHaveLength(3);
    await waitFor(
      () => Promise.resolve(requests[1]!.aborted),
      (aborted) => aborted,
    ); // the streaming follow-up was cancelled upstream
    const restartedBody = JSON.stringify(requests[2]!.body);
    expect(restartedBody).toMatch(/ms\\?":173\b/); // the finished call and its result are kept
    expect(restartedBody).not.toContain("stale stale"); // the partial text after it is cut
    expect(restartedBody).toContain("Wait, then answer");
    expect(bed.calls).toEqual(["fixture.slow"]); // not run again
    expectNoInvalidRequest();
  });
});

/** The old turn is superseded, its calls kept for display; the new one ran on `revision` with the extra tools. */
async function expectRestartedOn(oldTurnId: string, newTurnId: string, revision: number) {
  const { db } = bed.database;
  expect((await db.turn.findUniqueOrThrow({ where: { id: oldTurnId } })).status).toBe("superseded");
  const done = await waitForTurnEnd(db, newTurnId);
  expect(done).toMatchObject({ status: "completed", restartOfId: oldTurnId });
  const [request, ...more] = await turnRequests(newTurnId);
  expect(more).toEqual([]);
  expect(request!.toolsRevision).toBe(revision);
  const names = request!.toolNames as string[];
  expect(names.some((name) => name.startsWith("extra_"))).toBe(true);
  expect(names.some((name) => name.startsWith("fixture_"))).toBe(true);
  const kept = await db.message.findMany({ where: { turnId: oldTurnId, role: "assistant" } });
  expect(kept.flatMap((message) => message.parts as { type: string }[]).some((part) => part.type === "tool-call")).toBe(
    true,
  );
}
