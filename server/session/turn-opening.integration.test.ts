// The statement that starts a turn also reads what the turn's first model request needs (the history,
// the overlays, the tool revision: turn-sql.ts, `opening`), so that request makes no read of its own.
// Against the real Postgres and session manager: what it reads must be exactly what the separate
// reads give for the same turn, on a chat whose history holds every kind of message the history
// query leaves out (a superseded answer, a user message replaced by an edit).
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  createTestEngine,
  createUserWithSession,
  sessionMessages,
  TEST_MODELS,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { readLatestRevision } from "../mcp/revision-store.ts";
import { RESERVED_IDS } from "./event-ids.ts";
import { addOverlay, loadOverlays } from "./overlays.ts";
import { loadTurnHistory } from "./transcript.ts";
import { startTurnRows } from "./turn-sql.ts";

let engine: TestEngine;
const choice = { provider: "anthropic" as const, model: TEST_MODELS.anthropic };
const reply = (text: string) => ({ steps: [{ type: "text" as const, text }] });

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

/** A chat with a finished exchange, a regenerated one (its first answer superseded) and an edit. */
async function chatWithEveryKindOfMessage() {
  const { db, fake, manager } = engine;
  const { userId, sessionId } = await createUserWithSession(db);
  fake.script("anthropic", reply("KEPT-ANSWER"), reply("SUPERSEDED-ANSWER"), reply("REGENERATED-ANSWER"));
  const first = await manager.startTurn(userId, sessionId, "FIRST-QUESTION", choice);
  await waitForTurnEnd(db, first.turnId);
  const second = await manager.startTurn(userId, sessionId, "SECOND-QUESTION", choice);
  await waitForTurnEnd(db, second.turnId);
  const regenerated = await manager.restart(userId, second.turnId);
  await waitForTurnEnd(db, regenerated.turnId);
  fake.script("anthropic", reply("ORIGINAL-ANSWER"), reply("EDITED-ANSWER"));
  const third = await manager.startTurn(userId, sessionId, "ORIGINAL-QUESTION", choice);
  await waitForTurnEnd(db, third.turnId);
  const original = (await sessionMessages(db, sessionId)).filter((m) => m.role === "user").at(-1)!;
  const edited = await manager.editAndResend(userId, original.id, "EDITED-QUESTION", choice);
  await waitForTurnEnd(db, edited.turnId);
  await addOverlay(db, userId, sessionId, { kind: "pin", text: "PINNED-NOTE" });
  return { userId, sessionId };
}

describe("the opening of a turn", () => {
  it("reads with the claim exactly what the first request would read after it", async () => {
    const { db } = engine;
    const { userId, sessionId } = await chatWithEveryKindOfMessage();
    const id = randomUUID();
    const started = await startTurnRows(db, {
      id,
      sessionId,
      ownerId: userId,
      ...choice,
      accountId: null,
      text: "NEW-QUESTION",
      title: "NEW-QUESTION",
      leaseOwner: "test",
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    expect(started).not.toBeNull();
    const { opening, historySeq } = started!;

    expect(opening.history).toEqual(await loadTurnHistory(db, { id, sessionId, historySeq }));
    expect(opening.overlays).toEqual(await loadOverlays(db, sessionId));
    expect(opening.toolsRevision).toBe(await readLatestRevision(db, sessionId));

    const said = JSON.stringify(opening.history);
    for (const kept of ["FIRST-QUESTION", "KEPT-ANSWER", "SECOND-QUESTION", "REGENERATED-ANSWER"])
      expect(said).toContain(kept);
    for (const left of ["SUPERSEDED-ANSWER", "ORIGINAL-QUESTION", "ORIGINAL-ANSWER"]) expect(said).not.toContain(left);
    expect(opening.history.at(-1)).toMatchObject({ role: "user", parts: [{ type: "text", text: "NEW-QUESTION" }] });
    expect(opening.overlays.overlays.map((overlay) => overlay.text)).toEqual(["PINNED-NOTE"]);

    // Its event ids: a block of the log's sequence, drawn after the claim's own events.
    const lastStored = await db.sessionEvent.findFirst({ where: { sessionId }, orderBy: { id: "desc" } });
    const ids = opening.eventIds.map(BigInt);
    expect(ids).toHaveLength(RESERVED_IDS);
    expect(ids.every((id, at) => id > lastStored!.id && (at === 0 || id > ids[at - 1]!))).toBe(true);
  });

  it("reads nothing and writes nothing when the chat is not the sender's", async () => {
    const { db } = engine;
    const { sessionId } = await createUserWithSession(db, "Owner");
    const { userId: stranger } = await createUserWithSession(db, "Stranger");
    const started = await startTurnRows(db, {
      id: randomUUID(),
      sessionId,
      ownerId: stranger,
      ...choice,
      accountId: null,
      text: "not yours",
      title: "not yours",
      leaseOwner: "test",
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    expect(started).toBeNull();
    expect(await sessionMessages(db, sessionId)).toEqual([]);
  });
});
