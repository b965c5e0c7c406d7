// Apply now keeps finished tool work, for each provider, against real parts (Postgres, our MCP
// fixture over stdio behind the real registry, the real AI SDK providers, the fake provider and its
// strict validators). The scripted model behaves like a real one: it calls `echo` until it has its
// result, then `slow`, and once it sees the new tools (or misses the old ones) it answers. Apply now
// after the `echo` round finished and while `slow` runs must give a restarted request that holds the
// echo call with its result, no slow call, in an order the provider accepts, and `echo` must not run
// again; the same when `slow` waits for the user's approval. When both calls are in one response,
// the round is kept with `slow` cancelled. A plain Regenerate redoes everything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ParsedRequest, ScriptedReply } from "../../e2e/support/fake-provider/script.ts";
import { countRecentToolCalls } from "../policy/limits.ts";
import { startConnectorBed, type ConnectorBed } from "../../e2e/support/testbeds/connector-bed.ts";
import { fakeIdFor, TEST_MODELS, waitFor, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import { getSessionHistory } from "./history.ts";
import { appendTurnToolMessage } from "./transcript.ts";

let bed: ConnectorBed;

beforeAll(async () => {
  bed = await startConnectorBed();
});

afterAll(async () => {
  await bed.close();
});

const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });
const MARK = "kept-side-effect";

/** A model that calls echo, then slow; and answers as soon as `isRestarted` sees the new tool set. */
function scriptedModel(tools: { echo: string; slow: string }, isRestarted: (request: ParsedRequest) => boolean) {
  return (request: ParsedRequest): ScriptedReply => {
    if (request.toolResults.length === 0)
      return { steps: [{ type: "tool-call", name: tools.echo, args: { text: MARK } }] };
    if (isRestarted(request)) return { steps: [{ type: "text", text: "Answered from the kept result." }] };
    return { steps: [{ type: "tool-call", name: tools.slow, args: { ms: 4321, steps: 4 } }] };
  };
}

/**
 * Starts a turn and waits until its echo round is stored and the slow call runs (or, with
 * `askFirst`, waits for the user's approval).
 */
async function turnWithPendingSlowCall(
  provider: ProviderId,
  isRestarted: (request: ParsedRequest) => boolean,
  askFirst = false,
) {
  const { fake, manager, database } = bed;
  const chat = await bed.chatWithFixture();
  if (askFirst) await bed.askBefore(chat.userId, chat.sessionId, "slow");
  fake.clear();
  bed.calls.length = 0;
  const model = scriptedModel(chat, isRestarted);
  fake.script(fakeIdFor(provider), model, model, model, model);
  const { turnId } = await manager.startTurn(chat.userId, chat.sessionId, "Echo, then wait", choice(provider));
  await waitFor(
    () =>
      askFirst
        ? database.db.toolApproval.count({ where: { turnId, status: "pending" } })
        : Promise.resolve(bed.calls.filter((name) => name === "fixture.slow").length),
    (count) => count === 1,
  );
  expect(await database.db.message.count({ where: { turnId, role: "tool" } })).toBe(1);
  return { ...chat, turnId };
}

function expectNoInvalidRequest() {
  const refused = bed.fake.requests().filter((request) => request.status !== 200);
  expect(refused.map((request) => `${request.path}: ${request.error ?? request.status}`)).toEqual([]);
}

const hasExtraTools = (request: ParsedRequest) => request.toolNames.some((name) => name.startsWith("extra_"));
const lacksFixtureTools = (request: ParsedRequest) => !request.toolNames.some((name) => name.startsWith("fixture_"));

describe.each(providerIds)("apply now keeps finished rounds on %s", (provider) => {
  const fakeId = fakeIdFor(provider);

  it("keeps the finished echo round, drops the running slow call, and does not run echo again", async () => {
    const { db } = bed.database;
    const chat = await turnWithPendingSlowCall(provider, hasExtraTools);
    const revision = await bed.setConnector(chat.userId, chat.sessionId, "extra", true);
    const restarted = await bed.manager.applyNow(chat.userId, chat.turnId);

    expect(await waitForTurnEnd(db, restarted.turnId)).toMatchObject({ status: "completed", restartOfId: chat.turnId });
    expect(bed.calls).toEqual(["fixture.echo", "fixture.slow"]);
    const requests = bed.fake.requests(fakeId);
    expect(requests).toHaveLength(3);
    const body = JSON.stringify(requests[2]!.body);
    expect(body).toContain(MARK); // the echo call and its result (the fixture echoes its text)
    expect(body.split(MARK).length - 1).toBeGreaterThanOrEqual(2);
    expect(body).not.toMatch(/ms\\?":4321\b/); // no dangling slow call
    expectNoInvalidRequest();

    const audit = await db.turnRequest.findMany({ where: { turnId: restarted.turnId } });
    expect(audit.map((request) => request.toolsRevision)).toEqual([revision]);
    const history = await getSessionHistory(db, chat.userId, chat.sessionId);
    const own = history.messages.filter((message) => message.turnId === restarted.turnId);
    expect(own.map((message) => [message.role, !!message.keptFrom])).toEqual([
      ["assistant", true],
      ["tool", true],
      ["assistant", false],
    ]);
    const old = history.messages.filter((message) => message.turnId === chat.turnId);
    expect(old.map((message) => message.id)).toContain(own[0]!.keptFrom); // the original stays on the old turn
    const echoResult = own[1]!.parts.find((part) => part.type === "tool-result");
    expect(echoResult && "durationMs" in echoResult && typeof echoResult.durationMs).toBe("number"); // the copy keeps the call's duration
    // Live, the copies arrive marked as kept too (a browser following events labels them at once).
    const created = await db.sessionEvent.findMany({
      where: { turnId: restarted.turnId, type: "message.created" },
      orderBy: { id: "asc" },
    });
    const keptLive = created.map((event) => (event.data as { keptFrom?: string }).keptFrom);
    expect(keptLive.slice(0, 2)).toEqual([own[0]!.keptFrom, own[1]!.keptFrom]);
    expect(history.turns.find((turn) => turn.id === chat.turnId)?.status).toBe("superseded");
    const cancelled = old.flatMap((message) => message.parts).filter((part) => part.type === "tool-result");
    expect(cancelled.at(-1)).toMatchObject({ isError: true, output: { error: { code: "cancelled" } } });
    expect(await countRecentToolCalls(db, chat.sessionId)).toBe(2); // the kept copy is not a new call
    const late = await appendTurnToolMessage(db, { id: chat.turnId, sessionId: chat.sessionId }, []);
    expect(late).toBeNull(); // the superseded run can no longer add a tool message
  });

  it("cancels a call that waits for approval: the approval expires, the tool never runs", async () => {
    const { db } = bed.database;
    const chat = await turnWithPendingSlowCall(provider, hasExtraTools, true);
    await bed.setConnector(chat.userId, chat.sessionId, "extra", true);
    const restarted = await bed.manager.applyNow(chat.userId, chat.turnId);

    expect((await waitForTurnEnd(db, restarted.turnId)).status).toBe("completed");
    expect(bed.calls).toEqual(["fixture.echo"]);
    const body = JSON.stringify(bed.fake.requests(fakeId)[2]!.body);
    expect(body).toContain(MARK);
    expect(body).not.toMatch(/ms\\?":4321\b/);
    expect(await db.toolApproval.findMany({ where: { turnId: chat.turnId } })).toMatchObject([{ status: "expired" }]);
    const settled = await db.message.findMany({
      where: { turnId: chat.turnId, role: "tool" },
      orderBy: { seq: "asc" },
    });
    expect(settled.at(-1)!.parts).toMatchObject([{ isError: true, output: { error: { code: "cancelled" } } }]);
    expectNoInvalidRequest();
  });

  it("keeps a round whose first call finished while the second runs: that one cancelled, echo not run again", async () => {
    const { db } = bed.database;
    const chat = await bed.chatWithFixture();
    bed.fake.clear();
    bed.calls.length = 0;
    const model = (request: ParsedRequest): ScriptedReply =>
      request.toolResults.length === 0
        ? {
            steps: [
              { type: "tool-call", name: chat.echo, args: { text: MARK } },
              { type: "tool-call", name: chat.slow, args: { ms: 4321, steps: 4 } },
            ],
          }
        : { steps: [{ type: "text", text: "Answered from the kept round." }] };
    bed.fake.script(fakeId, model, model);
    const { turnId } = await bed.manager.startTurn(chat.userId, chat.sessionId, "Echo and wait", choice(provider));
    await waitFor(
      () => Promise.resolve(bed.calls.length),
      (count) => count === 2, // echo returned, slow runs
    );
    await bed.setConnector(chat.userId, chat.sessionId, "extra", true);
    const restarted = await bed.manager.applyNow(chat.userId, turnId);

    expect((await waitForTurnEnd(db, restarted.turnId)).status).toBe("completed");
    expect(bed.calls).toEqual(["fixture.echo", "fixture.slow"]);
    const requests = bed.fake.requests(fakeId);
    expect(requests).toHaveLength(2);
    const body = JSON.stringify(requests[1]!.body);
    expect(body).toContain(MARK); // echo's call and result
    expect(body).toMatch(/ms\\?":4321\b/); // the slow call is there, with its cancelled result
    expect(body).toContain("the answer was restarted before this call returned");
    const copied = await db.message.findMany({ where: { turnId: restarted.turnId, role: "tool" } });
    expect(copied[0]!.parts).toMatchObject([
      { callId: expect.any(String) as string, isError: false },
      { isError: true, output: { error: { code: "cancelled" } } },
    ]);
    expectNoInvalidRequest();
  });

  it("stays valid when the kept round's tool is no longer offered on the new revision", async () => {
    const { db } = bed.database;
    const chat = await turnWithPendingSlowCall(provider, lacksFixtureTools);
    await bed.setConnector(chat.userId, chat.sessionId, "fixture", false);
    const restarted = await bed.manager.applyNow(chat.userId, chat.turnId);

    expect((await waitForTurnEnd(db, restarted.turnId)).status).toBe("completed");
    const [, , last] = bed.fake.requests(fakeId);
    expect(JSON.stringify(last!.body)).toContain(MARK); // the kept call, to a tool no longer declared
    const [audit] = await db.turnRequest.findMany({ where: { turnId: restarted.turnId } });
    expect(audit!.toolNames).not.toContain(chat.echo);
    expect(bed.calls).toEqual(["fixture.echo", "fixture.slow"]);
    expectNoInvalidRequest();
  });
});

describe("Regenerate (a plain restart)", () => {
  it("redoes the whole turn from the user message: nothing is kept, echo runs again", async () => {
    const { db } = bed.database;
    const chat = await turnWithPendingSlowCall("anthropic", hasExtraTools);
    await bed.setConnector(chat.userId, chat.sessionId, "extra", true);
    const restarted = await bed.manager.restart(chat.userId, chat.turnId);

    expect((await waitForTurnEnd(db, restarted.turnId)).status).toBe("completed");
    const requests = bed.fake.requests("anthropic");
    expect(requests).toHaveLength(4);
    expect(JSON.stringify(requests[2]!.body)).not.toContain(MARK); // starts again from the user message
    expect(bed.calls).toEqual(["fixture.echo", "fixture.slow", "fixture.echo"]);
    const own = await db.message.findMany({ where: { turnId: restarted.turnId }, orderBy: { seq: "asc" } });
    expect(own.every((message) => message.metadata === null)).toBe(true);
    expectNoInvalidRequest();
  });
});
