// Context overlays against real parts (Postgres, the session manager, the real AI SDK providers, the
// strict fake provider that refuses any request the real API would refuse), on all four providers:
// a first turn makes a tool round; the user excludes that round and pins a note; the next turn's
// request has neither the call nor its result, carries the note just before the user's message,
// and every request the provider saw was valid. The stored chat is untouched, and each request's
// audit row records the overlay revision and what was excluded and pinned. Then the router's
// isolation: another user's chat, overlay or message ids are not_found, never touched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCaller } from "../api/root.ts";
import { PINNED_NOTE_PREFIX } from "../core/context-overlays.ts";
import { exposeToolName } from "../core/tool-names.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import {
  createTestEngine,
  createUserWithSession,
  fakeIdFor,
  sessionMessages,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { getSessionHistory } from "./history.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
/** How a tool result appears in each provider's request body. */
const RESULT_MARKER: Record<ProviderId, string> = {
  anthropic: '"tool_result"',
  openai: '"function_call_output"',
  google: '"functionResponse"',
  "openai-compatible": '"role":"tool"',
};
const NOTE = "Always answer in French.";

let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

const caller = (userId: string) =>
  createCaller({ db: engine.db, user: { id: userId, name: "U", email: null, image: null } });

describe.each(providerIds)("overlays on %s", (provider) => {
  it("exclude a tool round and pin a note: the next request leaves the pair out, carries the note, and validates", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await createUserWithSession(db);
    const fakeId = fakeIdFor(provider);
    const model = { provider, model: TEST_MODELS[provider] };
    fake.clear();
    fake.script(
      fakeId,
      {
        steps: [
          { type: "text", text: "Let me look." },
          { type: "tool-call", name: TIME_TOOL, args: {} },
        ],
      },
      { steps: [{ type: "text", text: "It is noon." }] },
      { steps: [{ type: "text", text: "Bonjour." }] },
    );
    const first = await manager.startTurn(userId, sessionId, "What time is it?", model);
    expect((await waitForTurnEnd(db, first.turnId)).status).toBe("completed");
    const storedBefore = await sessionMessages(db, sessionId);
    const call = storedBefore
      .flatMap((m) => m.parts as { type: string; id?: string }[])
      .find((p) => p.type === "tool-call");

    const overlays = caller(userId).overlays;
    await overlays.excludeRound({ sessionId, callId: call!.id! });
    const pinned = await overlays.pin({ sessionId, text: NOTE });
    expect(pinned.revision).toBe(2);

    const second = await manager.startTurn(userId, sessionId, "And now?", model);
    expect((await waitForTurnEnd(db, second.turnId)).status).toBe("completed");

    const requests = fake.requests(fakeId);
    expect(requests).toHaveLength(3);
    for (const request of requests) expect(request.error, JSON.stringify(request.body)).toBeUndefined();
    expect(JSON.stringify(requests[1]!.body)).toContain(RESULT_MARKER[provider]);
    const last = JSON.stringify(requests[2]!.body);
    expect(last).not.toContain(RESULT_MARKER[provider]);
    expect(last).toContain("Let me look.");
    expect(last).toContain("It is noon.");
    const noteAt = last.indexOf(`${PINNED_NOTE_PREFIX} ${NOTE}`);
    expect(noteAt).toBeGreaterThan(last.indexOf("It is noon."));
    expect(noteAt).toBeLessThan(last.indexOf("And now?"));

    // The stored chat is untouched; the audit says what the request was rendered with.
    const storedAfter = await sessionMessages(db, sessionId);
    expect(storedAfter.slice(0, storedBefore.length).map((m) => m.parts)).toEqual(storedBefore.map((m) => m.parts));
    const history = await getSessionHistory(db, userId, sessionId);
    expect(history.session.overlayRevision).toBe(2);
    const [audit] = history.turns.find((turn) => turn.id === second.turnId)!.requests;
    expect(audit).toMatchObject({
      overlayRevision: 2,
      overlays: {
        excluded: [{ id: call!.id, label: "tool round builtin.current_time" }],
        pinned: [{ label: NOTE }],
        replaced: [],
      },
    });
    const firstAudit = history.turns.find((turn) => turn.id === first.turnId)!.requests;
    expect(firstAudit.map((request) => request.overlays)).toEqual([null, null]);
    const changed = await db.sessionEvent.findMany({
      where: { sessionId, type: "overlays.changed" },
      orderBy: { id: "asc" },
    });
    expect(changed.map((event) => event.data)).toEqual([{ revision: 1 }, { revision: 2 }]);
  });
});

describe("the overlays router", () => {
  it("is owner-only: another user's chat, overlay and message ids are not found and stay untouched", async () => {
    const { db } = engine;
    const alice = await createUserWithSession(db, "Alice");
    const bob = await createUserWithSession(db, "Bob");
    const message = await db.message.create({
      data: { sessionId: alice.sessionId, seq: 1, role: "user", parts: [{ type: "text", text: "Secret" }] },
    });
    const own = await caller(alice.userId).overlays.excludeMessage({
      sessionId: alice.sessionId,
      messageId: message.id,
    });
    const overlayId = own.overlays[0]!.id;
    const mallory = caller(bob.userId).overlays;

    const notFound = (surface: string) => ({ code: "NOT_FOUND", cause: { code: `not_found:${surface}` } });
    await expect(mallory.list({ sessionId: alice.sessionId })).rejects.toMatchObject(notFound("session"));
    await expect(mallory.pin({ sessionId: alice.sessionId, text: "x" })).rejects.toMatchObject(notFound("session"));
    await expect(mallory.remove({ overlayId })).rejects.toMatchObject(notFound("overlay"));
    await expect(mallory.excludeMessage({ sessionId: bob.sessionId, messageId: message.id })).rejects.toMatchObject({
      ...notFound("overlay"),
      message: "That message is not in this chat.",
    });
    await expect(
      mallory.replaceResult({ sessionId: bob.sessionId, callId: "call_1", text: "x" }),
    ).rejects.toMatchObject(notFound("overlay"));

    const after = await caller(alice.userId).overlays.list({ sessionId: alice.sessionId });
    expect(after).toMatchObject({ revision: 1, overlays: [{ id: overlayId, kind: "exclude", messageId: message.id }] });
    expect(Math.abs(after.overlays[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await caller(alice.userId).overlays.remove({ overlayId })).overlays).toEqual([]);
    await expect(mallory.pin({ sessionId: bob.sessionId, text: "   " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
