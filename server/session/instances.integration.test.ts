// Two app processes on one database: a turn running in another process is cancelled from this one
// (the other process aborts its upstream stream), and a process killed mid-stream leaves a turn
// that the surviving instance marks `interrupted`, with the user message and partial answer kept.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

let engine: TestEngine;
const children: ChildProcess[] = [];

beforeAll(async () => {
  engine = await createTestEngine();
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await engine.close();
});

async function startTurnInOtherProcess(
  text: string,
): Promise<{ child: ChildProcess; turnId: string; sessionId: string; userId: string }> {
  const { userId, sessionId } = await createUserWithSession(engine.db);
  const args = {
    databaseUrl: engine.database.url,
    baseUrls: engine.fake.baseUrls,
    userId,
    sessionId,
    text,
    provider: "anthropic",
    model: TEST_MODELS.anthropic,
  };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "e2e/support/testbeds/turn-process.ts", JSON.stringify(args)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`turn process exited with ${code}`)));
  });
  const { turnId } = JSON.parse(first) as { turnId: string };
  return { child, turnId, sessionId, userId };
}

function waitForPartialAnswer(sessionId: string) {
  return waitFor(
    async () => (await sessionMessages(engine.db, sessionId)).find((m) => m.role === "assistant"),
    (message) => !!message && messageText(message).length > 10,
  );
}

describe("several app instances", () => {
  it("cancels a turn that runs in another process", async () => {
    engine.fake.clear();
    engine.fake.script("anthropic", {
      steps: [{ type: "text", text: "tick ".repeat(500), chunkSize: 5 }],
      delayMs: 20,
    });
    const { child, turnId, sessionId, userId } = await startTurnInOtherProcess("Keep talking");
    await waitForPartialAnswer(sessionId);
    expect(engine.manager.isRunningHere(turnId)).toBe(false);

    await engine.manager.cancel(userId, turnId);
    expect((await engine.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("cancelled");
    await waitFor(
      () => Promise.resolve(engine.fake.requests("anthropic")[0]?.aborted),
      (aborted) => aborted === true,
      5_000,
    );
    const session = await engine.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.activeTurnId).toBeNull();
    child.kill("SIGTERM");
  });

  it("marks a turn interrupted when its process dies mid-stream, keeping what was written", async () => {
    engine.fake.clear();
    engine.fake.script("anthropic", {
      steps: [{ type: "text", text: "crash ".repeat(500), chunkSize: 6 }],
      delayMs: 20,
    });
    const { child, turnId, sessionId } = await startTurnInOtherProcess("Until the crash");
    await waitForPartialAnswer(sessionId);
    child.kill("SIGKILL");

    const turn = await waitForTurnEnd(engine.db, turnId, 20_000);
    expect(turn.status).toBe("interrupted");
    const messages = await sessionMessages(engine.db, sessionId);
    expect(messageText(messages[0]!)).toBe("Until the crash");
    expect(messageText(messages[1]!)).toContain("crash crash");
    const session = await engine.db.chatSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.activeTurnId).toBeNull();
  });
});
