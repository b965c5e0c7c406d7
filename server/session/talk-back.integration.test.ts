// The talk-back built-ins end to end, for each provider: Postgres, the real registry (built-ins plus
// the MCP fixture), two session managers and the fake provider, which refuses (400) every request the
// real API would refuse. ask_followup_question pauses the turn until the chat's owner answers (from
// any instance, or another process), and the answer is the call's result; attempt_completion ends the
// turn with its result and no further request; Stop and Apply now expire a pending question; both
// work in the XML tool mode; both can be switched off per chat like any tool.
import { spawn } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCaller } from "../api/root.ts";
import { providerIds, type ProviderId } from "../core/canonical.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import { setBuiltinToolEnabled } from "../mcp/builtin-switch.ts";
import { getSessionTools } from "../mcp/session-tools.ts";
import { answerQuestion } from "../policy/followup-questions.ts";
import { getSessionHistory } from "./history.ts";
import { createTestUser } from "../../e2e/support/testbeds/database.ts";
import {
  fakeIdFor,
  fakeResolver,
  sessionMessages,
  TEST_MODELS,
  waitFor,
  waitForTurnEnd,
} from "../../e2e/support/testbeds/engine.ts";
import { createPolicyTestbed, type PolicyTestbed } from "../../e2e/support/testbeds/policy-testbed.ts";

let bed: PolicyTestbed;

beforeAll(async () => {
  bed = await createPolicyTestbed();
});

afterAll(async () => {
  await bed.close();
});

const choice = (provider: ProviderId) => ({ provider, model: TEST_MODELS[provider] });
type ToolResult = { callId: string; isError: boolean; output: unknown };

function callerFor(user: { id: string; name: string }) {
  return createCaller({ db: bed.db, user: { id: user.id, name: user.name, email: null, image: null } });
}

async function toolResults(sessionId: string, turnId?: string): Promise<ToolResult[]> {
  const messages = await sessionMessages(bed.db, sessionId);
  return messages
    .filter((message) => message.role === "tool" && (!turnId || message.turnId === turnId))
    .flatMap((message) => message.parts as ToolResult[]);
}

/** No request the fake received was one the real API would refuse (the reasons, when there are). */
function expectNoInvalidRequest() {
  const refused = bed.fake.requests().filter((request) => request.status === 400);
  expect(refused.map((request) => `${request.path}: ${request.error}`)).toEqual([]);
}

async function exposed(sessionId: string, canonicalName: string): Promise<string> {
  return (await bed.tool(sessionId, canonicalName))!.exposedName;
}

/** A chat whose model asks a question with options, then answers with what it was told; the started turn. */
async function askingTurn(provider: ProviderId, name: string) {
  const { userId, sessionId } = await bed.chatWithFixture(name);
  const fakeId = fakeIdFor(provider);
  const ask = await exposed(sessionId, ASK_FOLLOWUP_QUESTION);
  bed.fake.clear();
  const args = { question: "Which colour?", options: ["Red", "Blue"] };
  bed.fake.script(fakeId, { steps: [{ type: "tool-call", name: ask, args }] });
  bed.fake.script(fakeId, { steps: [{ type: "text", text: "Blue it is." }] });
  const { turnId } = await bed.manager.startTurn(userId, sessionId, "Paint something", choice(provider));
  const asked = await bed.event(turnId, "tool.question");
  return { userId, name, sessionId, turnId, fakeId, questionId: String(asked.questionId), asked };
}

describe.each(providerIds)("talk-back built-ins on %s", (provider) => {
  it("a followup question pauses the turn; the owner's answer is the result and the turn goes on", async () => {
    const { userId, name, sessionId, turnId, fakeId, questionId, asked } = await askingTurn(provider, `Q-${provider}`);
    expect(asked).toMatchObject({ question: "Which colour?", options: ["Red", "Blue"] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await bed.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("streaming");
    expect(bed.fake.requests(fakeId)).toHaveLength(1);
    const history = await getSessionHistory(bed.db, userId, sessionId); // what a reloaded page reads
    expect(history.questions).toMatchObject([
      { id: questionId, turnId, status: "pending", question: "Which colour?", options: ["Red", "Blue"] },
    ]);

    const answered = await callerFor({ id: userId, name }).questions.answer({ questionId, answer: "Blue" });
    expect(answered).toMatchObject({ status: "answered", answer: "Blue" });
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect(await toolResults(sessionId)).toMatchObject([{ callId: asked.callId, isError: false, output: "Blue" }]);
    expect(bed.fake.requests(fakeId)).toHaveLength(2);
    expect(JSON.stringify(bed.fake.requests(fakeId)[1]!.body)).toContain("Blue");
    expect(await bed.event(turnId, "tool.question.answered")).toMatchObject({ questionId, answer: "Blue" });
    expectNoInvalidRequest();
  });

  it("attempt_completion ends the turn with its result and no further model request", async () => {
    const { userId, sessionId } = await bed.chatWithFixture(`Done-${provider}`);
    const fakeId = fakeIdFor(provider);
    const complete = await exposed(sessionId, ATTEMPT_COMPLETION);
    bed.fake.clear();
    bed.fake.script(fakeId, {
      steps: [
        { type: "text", text: "Finishing." },
        { type: "tool-call", name: complete, args: { result: "**All done**: 3 files." } },
      ],
    });
    bed.fake.script(fakeId, { steps: [{ type: "text", text: "This must never be requested." }] });
    const { turnId } = await bed.manager.startTurn(userId, sessionId, "Do the task", choice(provider));
    const turn = await waitForTurnEnd(bed.db, turnId);
    expect(turn.status).toBe("completed");
    expect(turn.error).toBeNull();
    expect(bed.fake.requests(fakeId)).toHaveLength(1);
    const assistant = (await sessionMessages(bed.db, sessionId)).filter((message) => message.role === "assistant");
    expect(assistant).toHaveLength(1);
    expect(assistant[0]!.parts).toContainEqual(
      expect.objectContaining({
        type: "tool-call",
        name: ATTEMPT_COMPLETION,
        args: { result: "**All done**: 3 files." },
      }),
    );
    expect(await toolResults(sessionId)).toMatchObject([{ isError: false }]);

    // The chat goes on: the next turn's request carries the completed call and its result, and validates.
    bed.fake.script(fakeId, { steps: [{ type: "text", text: "Sure." }] });
    const next = await bed.manager.startTurn(userId, sessionId, "Thanks", choice(provider));
    expect((await waitForTurnEnd(bed.db, next.turnId)).status).toBe("completed");
    expectNoInvalidRequest();
  });
});

describe("a turn waiting for an answer", () => {
  it("is stopped from another instance: the question expires and can never be answered", async () => {
    const { userId, name, sessionId, turnId, questionId } = await askingTurn("anthropic", "Stopper");
    await bed.second.cancel(userId, turnId);
    expect((await bed.db.turn.findUniqueOrThrow({ where: { id: turnId } })).status).toBe("cancelled");
    await waitFor(
      () => Promise.resolve(bed.manager.isRunningHere(turnId)),
      (isRunning) => !isRunning,
    );
    expect((await bed.db.followupQuestion.findUniqueOrThrow({ where: { id: questionId } })).status).toBe("expired");
    await expect(callerFor({ id: userId, name }).questions.answer({ questionId, answer: "Red" })).rejects.toMatchObject(
      {
        code: "CONFLICT",
        cause: {
          code: "conflict:question",
          message: "This answer has ended, so the question can no longer be answered.",
        },
      },
    );
    expect((await getSessionHistory(bed.db, userId, sessionId)).questions).toMatchObject([{ status: "expired" }]);
    expect(bed.fake.requests("anthropic")).toHaveLength(1);
  });

  it("is restarted by Apply now: the old question expires, the new turn asks again", async () => {
    const { userId, sessionId, turnId, questionId } = await askingTurn("anthropic", "Applier");
    const ask = await exposed(sessionId, ASK_FOLLOWUP_QUESTION);
    bed.fake.clear();
    bed.fake.script("anthropic", { steps: [{ type: "tool-call", name: ask, args: { question: "Again?" } }] });
    bed.fake.script("anthropic", { steps: [{ type: "text", text: "Fine." }] });

    const restarted = await bed.second.applyNow(userId, turnId);
    expect((await bed.db.followupQuestion.findUniqueOrThrow({ where: { id: questionId } })).status).toBe("expired");
    const asked = await bed.event(restarted.turnId, "tool.question");
    expect(asked).toMatchObject({ question: "Again?", options: [] });
    await answerQuestion(bed.db, userId, String(asked.questionId), "Yes");
    expect((await waitForTurnEnd(bed.db, restarted.turnId)).status).toBe("completed");
    expect(await toolResults(sessionId, restarted.turnId)).toMatchObject([{ output: "Yes" }]);
    expectNoInvalidRequest();
  });

  it("is unblocked by an answer another app process writes", async () => {
    const { userId, sessionId, turnId, questionId } = await askingTurn("openai", "Remote");
    const args = { databaseUrl: bed.database.url, ownerId: userId, questionId, answer: "Red" };
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "e2e/support/testbeds/answer-process.ts", JSON.stringify(args)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(JSON.parse(output)).toEqual({ status: "answered" });
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect(await toolResults(sessionId)).toMatchObject([{ isError: false, output: "Red" }]);
  });
});

describe("who may answer", () => {
  it("only the chat's owner, once; for anyone else the question does not exist", async () => {
    const { userId, name, turnId, questionId } = await askingTurn("google", "Owner");
    const mallory = await createTestUser(bed.db, "Mallory");
    await expect(
      callerFor({ id: mallory.id, name: "Mallory" }).questions.answer({ questionId, answer: "Red" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      cause: { code: "not_found:question" },
    });
    expect((await bed.db.followupQuestion.findUniqueOrThrow({ where: { id: questionId } })).status).toBe("pending");
    const owner = callerFor({ id: userId, name });
    await expect(owner.questions.answer({ questionId, answer: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await owner.questions.answer({ questionId, answer: "Red" })).toMatchObject({ status: "answered" });
    await expect(owner.questions.answer({ questionId, answer: "Blue" })).rejects.toMatchObject({
      code: "CONFLICT",
      cause: { code: "conflict:question", message: "This question was already answered." },
    });
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect((await bed.db.followupQuestion.findUniqueOrThrow({ where: { id: questionId } })).answer).toBe("Red");
  });
});

describe("the XML tool mode", () => {
  it("recovers a question and a completion written as text blocks", async () => {
    const xml = bed.startManager({
      instanceId: "instance-xml",
      resolveModel: fakeResolver(bed.fake, { isNativeTools: () => false }),
    });
    const { userId, sessionId } = await bed.chatWithFixture("Xml");
    bed.fake.clear();
    const question =
      '<ask_followup_question><question>Tea or coffee?</question><options>["Tea","Coffee"]</options></ask_followup_question>';
    bed.fake.script("compat", { steps: [{ type: "text", text: `Let me ask.\n${question}` }] });
    bed.fake.script("compat", {
      steps: [{ type: "text", text: "<attempt_completion><result>Made **tea**.</result></attempt_completion>" }],
    });
    bed.fake.script("compat", { steps: [{ type: "text", text: "This must never be requested." }] });
    const { turnId } = await xml.startTurn(userId, sessionId, "Make a drink", choice("openai-compatible"));
    const asked = await bed.event(turnId, "tool.question");
    expect(asked).toMatchObject({ question: "Tea or coffee?", options: ["Tea", "Coffee"] });
    await answerQuestion(bed.db, userId, String(asked.questionId), "Tea");
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    expect(bed.fake.requests("compat")).toHaveLength(2);
    const firstBody = JSON.stringify(bed.fake.requests("compat")[0]!.body);
    expect(firstBody).toContain("<ask_followup_question>");
    expect(JSON.stringify(bed.fake.requests("compat")[1]!.body)).toContain("Tea");
    const calls = (await sessionMessages(bed.db, sessionId))
      .flatMap((message) => message.parts as { type: string; name?: string; args?: unknown }[])
      .filter((part) => part.type === "tool-call");
    expect(calls).toMatchObject([
      { name: ASK_FOLLOWUP_QUESTION, args: { question: "Tea or coffee?", options: ["Tea", "Coffee"] } },
      { name: ATTEMPT_COMPLETION, args: { result: "Made **tea**." } },
    ]);
    expectNoInvalidRequest();
  });
});

describe("switching a talk-back built-in", () => {
  it("is a tool change: a new revision without the tool, and back", async () => {
    const { userId, sessionId } = await bed.chatWithFixture("Switcher");
    const before = (await bed.registry.snapshot(sessionId)).revision;
    const off = await setBuiltinToolEnabled(bed.deps, userId, { sessionId, name: ATTEMPT_COMPLETION, enabled: false });
    expect(off.revision).toBe(before + 1);
    expect(await bed.tool(sessionId, ATTEMPT_COMPLETION)).toBeUndefined();
    expect(await bed.tool(sessionId, ASK_FOLLOWUP_QUESTION)).toBeDefined();
    const panel = await getSessionTools(bed.deps, userId, sessionId);
    expect(panel.builtinTools.map((tool) => [tool.name, tool.enabled])).toEqual([
      ["builtin.current_time", true],
      [ASK_FOLLOWUP_QUESTION, true],
      [ATTEMPT_COMPLETION, false],
    ]);
    const on = await setBuiltinToolEnabled(bed.deps, userId, { sessionId, name: "attempt_completion", enabled: true });
    expect(on.revision).toBe(before + 2);
    expect(await bed.tool(sessionId, ATTEMPT_COMPLETION)).toBeDefined();
    const eve = await createTestUser(bed.db, "Eve");
    await expect(
      setBuiltinToolEnabled(bed.deps, eve.id, { sessionId, name: ATTEMPT_COMPLETION, enabled: false }),
    ).rejects.toMatchObject({ code: "not_found:session" });
  });
});
