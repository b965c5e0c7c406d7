// Edit and resend against real parts: Postgres, the session manager and the fake provider speaking
// Anthropic's wire format. The model's next request must carry the edited text and the history
// before it, and nothing of the replaced message or its answer; the old rows stay stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AppError } from "../errors.ts";
import { createTestUser } from "../../e2e/support/testbeds/database.ts";
import {
  createTestEngine,
  createUserWithSession,
  messageText,
  sessionMessages,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";
import { getSessionHistory } from "./history.ts";

let engine: TestEngine;
const choice = { provider: "anthropic" as const, model: TEST_MODELS.anthropic };

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  await engine.close();
});

/** A chat with two finished exchanges; returns the id of the last user message. */
async function chatWithTwoExchanges() {
  const { db, fake, manager } = engine;
  const { userId, sessionId } = await createUserWithSession(db);
  fake.clear();
  fake.script("anthropic", { steps: [{ type: "text", text: "Nice to meet you, Ada." }] });
  fake.script("anthropic", { steps: [{ type: "text", text: "OLD-ANSWER about cats." }] });
  const first = await manager.startTurn(userId, sessionId, "My name is Ada.", choice);
  await waitForTurnEnd(db, first.turnId);
  const second = await manager.startTurn(userId, sessionId, "Tell me about CATS-ORIGINAL", choice);
  await waitForTurnEnd(db, second.turnId);
  const lastUser = (await sessionMessages(db, sessionId)).filter((m) => m.role === "user").at(-1)!;
  return { userId, sessionId, oldTurnId: second.turnId, oldMessageId: lastUser.id };
}

async function expectAppError(promise: Promise<unknown>, code: string) {
  const error: unknown = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe("editAndResend", () => {
  it("answers the edited text from the history before it, without the replaced exchange", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId, oldTurnId, oldMessageId } = await chatWithTwoExchanges();
    fake.script("anthropic", { steps: [{ type: "text", text: "Dogs are loyal." }] });

    const { turnId } = await manager.editAndResend(userId, oldMessageId, "Tell me about DOGS-EDITED");
    expect((await waitForTurnEnd(db, turnId)).status).toBe("completed");

    const wire = fake.requests("anthropic");
    expect(wire).toHaveLength(3);
    const body = JSON.stringify(wire[2]!.body);
    expect(body).toContain("DOGS-EDITED");
    expect(body).toContain("My name is Ada."); // the history before the edited message
    expect(body).toContain("Nice to meet you, Ada.");
    expect(body).not.toContain("CATS-ORIGINAL");
    expect(body).not.toContain("OLD-ANSWER");

    // Nothing is deleted: the old message and its answer stay, marked.
    const messages = await sessionMessages(db, sessionId);
    expect(messages.map((m) => [m.role, messageText(m)])).toEqual([
      ["user", "My name is Ada."],
      ["assistant", "Nice to meet you, Ada."],
      ["user", "Tell me about CATS-ORIGINAL"],
      ["assistant", "OLD-ANSWER about cats."],
      ["user", "Tell me about DOGS-EDITED"],
      ["assistant", "Dogs are loyal."],
    ]);
    expect(messages[2]!.metadata).toEqual({ replacedBy: messages[4]!.id });
    expect((await db.turn.findUniqueOrThrow({ where: { id: oldTurnId } })).status).toBe("superseded");
    const newTurn = await db.turn.findUniqueOrThrow({ where: { id: turnId } });
    expect(newTurn).toMatchObject({ userMessageId: messages[4]!.id, historySeq: messages[4]!.seq });

    // The browser's history marks the replaced message; the event log tells live browsers.
    const history = await getSessionHistory(db, userId, sessionId);
    expect(history.messages.find((m) => m.id === oldMessageId)?.replacedBy).toBe(messages[4]!.id);
    expect(history.messages.find((m) => m.id === messages[4]!.id)?.replacedBy).toBeUndefined();
    const events = await db.sessionEvent.findMany({ where: { sessionId }, orderBy: { id: "asc" } });
    expect(events.find((e) => e.type === "user.message" && e.turnId === turnId)?.data).toMatchObject({
      messageId: messages[4]!.id,
      replaces: oldMessageId,
    });
    expect(
      events.some(
        (e) => e.type === "turn.finished" && (e.data as { status?: string; turnId?: string }).turnId === oldTurnId,
      ),
    ).toBe(true);
  });

  it("regenerating after an edit still leaves the replaced message out", async () => {
    const { db, fake, manager } = engine;
    const { userId, oldMessageId } = await chatWithTwoExchanges();
    fake.script("anthropic", { steps: [{ type: "text", text: "First try." }] });
    fake.script("anthropic", { steps: [{ type: "text", text: "Second try." }] });
    const edited = await manager.editAndResend(userId, oldMessageId, "Tell me about DOGS-EDITED");
    await waitForTurnEnd(db, edited.turnId);
    const again = await manager.restart(userId, edited.turnId);
    expect((await waitForTurnEnd(db, again.turnId)).status).toBe("completed");
    const body = JSON.stringify(fake.requests("anthropic").at(-1)!.body);
    expect(body).toContain("DOGS-EDITED");
    expect(body).not.toContain("CATS-ORIGINAL");
    expect(body).not.toContain("First try.");
  });

  it("refuses an earlier message, a replaced one, a streaming chat and another user's message", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId, oldMessageId } = await chatWithTwoExchanges();
    const firstMessage = (await sessionMessages(db, sessionId)).find((m) => m.role === "user")!;
    await expectAppError(manager.editAndResend(userId, firstMessage.id, "rewrite history"), "conflict:session");

    const stranger = await createTestUser(db, "Stranger");
    await expectAppError(manager.editAndResend(stranger.id, oldMessageId, "mine now"), "not_found:session");

    fake.script("anthropic", { steps: [{ type: "text", text: "slow ".repeat(300), chunkSize: 5 }], delayMs: 20 });
    const edited = await manager.editAndResend(userId, oldMessageId, "Tell me about DOGS-EDITED");
    await expectAppError(manager.editAndResend(userId, oldMessageId, "again"), "conflict:session");
    const newMessage = (await sessionMessages(db, sessionId)).filter((m) => m.role === "user").at(-1)!;
    await waitFor(
      () => db.turn.findUniqueOrThrow({ where: { id: edited.turnId } }),
      (turn) => turn.status === "streaming",
    );
    await expectAppError(manager.editAndResend(userId, newMessage.id, "while streaming"), "conflict:turn");
    await manager.cancel(userId, edited.turnId);
    expect((await db.turn.findUniqueOrThrow({ where: { id: edited.turnId } })).status).toBe("cancelled");
  });
});
