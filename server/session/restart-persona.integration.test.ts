// A restarted turn answers in the chat's persona, as its first turn did: Apply now (the persona
// prompt read with the turn it supersedes), Regenerate, and edit-and-resend (read beside the
// announcement). A chat without a persona gets the instance's default system prompt instead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  createTestEngine,
  createUserWithSession,
  sessionMessages,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
  type TestEngine,
} from "../../e2e/support/testbeds/engine.ts";

const PERSONA_PROMPT = "You are Captain Persona; answer like a ship's log.";
const DEFAULT_SYSTEM = "You are the plain default assistant.";
const CHOICE = { provider: "openai", model: TEST_MODELS.openai } as const;
const SLOW = { steps: [{ type: "text" as const, text: "log entry ".repeat(300), chunkSize: 6 }], delayMs: 20 };

let engine: TestEngine;

beforeAll(async () => {
  engine = await createTestEngine({ system: DEFAULT_SYSTEM });
});

afterAll(async () => {
  await engine.close();
});

async function chat(withPersona: boolean) {
  const { db } = engine;
  const ids = await createUserWithSession(db);
  if (withPersona) {
    const persona = await db.persona.create({
      data: { ownerId: ids.userId, name: "Captain", systemPrompt: PERSONA_PROMPT },
    });
    await db.chatSession.update({ where: { id: ids.sessionId }, data: { personaId: persona.id } });
  }
  return ids;
}

/** Starts a turn on a slow reply and waits until its answer streams. */
async function streamingTurn(userId: string, sessionId: string) {
  const { db, fake, manager } = engine;
  fake.clear();
  fake.script("openai", SLOW, { steps: [{ type: "text", text: "Restarted." }] });
  const { turnId } = await manager.startTurn(userId, sessionId, "Report the weather", CHOICE);
  await waitFor(
    () => db.sessionEvent.findFirst({ where: { turnId, type: "text.delta" } }),
    (event) => !!event,
  );
  return turnId;
}

function requestBody(index: number): string {
  return JSON.stringify(engine.fake.requests("openai")[index]?.body ?? null);
}

describe("a restarted turn's system prompt", () => {
  it("apply now keeps the chat's persona", async () => {
    const { userId, sessionId } = await chat(true);
    const turnId = await streamingTurn(userId, sessionId);
    const restarted = await engine.manager.applyNow(userId, turnId);
    expect((await waitForTurnEnd(engine.db, restarted.turnId)).status).toBe("completed");
    expect(requestBody(0)).toContain(PERSONA_PROMPT);
    expect(requestBody(1)).toContain(PERSONA_PROMPT);
    expect(requestBody(1)).not.toContain(DEFAULT_SYSTEM);
  });

  it("apply now in a chat without a persona gets the default system prompt", async () => {
    const { userId, sessionId } = await chat(false);
    const turnId = await streamingTurn(userId, sessionId);
    const restarted = await engine.manager.applyNow(userId, turnId);
    expect((await waitForTurnEnd(engine.db, restarted.turnId)).status).toBe("completed");
    expect(requestBody(1)).toContain(DEFAULT_SYSTEM);
    expect(requestBody(1)).not.toContain(PERSONA_PROMPT);
  });

  it("regenerate and edit-and-resend keep the chat's persona", async () => {
    const { db, fake, manager } = engine;
    const { userId, sessionId } = await chat(true);
    fake.clear();
    fake.script("openai", { steps: [{ type: "text", text: "First." }] }, { steps: [{ type: "text", text: "Again." }] });
    const first = await manager.startTurn(userId, sessionId, "Report the weather", CHOICE);
    await waitForTurnEnd(db, first.turnId);
    const again = await manager.restart(userId, first.turnId);
    expect((await waitForTurnEnd(db, again.turnId)).status).toBe("completed");
    expect(requestBody(1)).toContain(PERSONA_PROMPT);

    fake.script("openai", { steps: [{ type: "text", text: "Edited." }] });
    const question = (await sessionMessages(db, sessionId)).find((message) => message.role === "user")!;
    const edited = await manager.editAndResend(userId, question.id, "Report the tides");
    expect((await waitForTurnEnd(db, edited.turnId)).status).toBe("completed");
    expect(requestBody(2)).toContain(PERSONA_PROMPT);
    expect(requestBody(2)).toContain("Report the tides");
  });
});
