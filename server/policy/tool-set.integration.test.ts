// What a model is shown and how much it may call, end to end: `deny` hides tools (one tool, or a
// whole connector) from the snapshot and so from the request; a persona's allowlist filters the
// tools, built-ins included, and its prompt replaces the instance default; the per-response and
// per-minute limits turn the extra calls into error results the model reads, with a `limit.reached`
// event for the user. Postgres, the MCP fixture, the real registry and the fake provider throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCaller } from "../api/root.ts";
import { exposeToolName } from "../core/tool-names.ts";
import { ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION } from "../core/talk-back-names.ts";
import { createTestUser } from "../../e2e/support/testbeds/database.ts";
import { sessionMessages, waitForTurnEnd } from "../../e2e/support/testbeds/engine.ts";
import {
  ANTHROPIC,
  createPolicyTestbed,
  DEFAULT_SYSTEM,
  type PolicyTestbed,
} from "../../e2e/support/testbeds/policy-testbed.ts";
import { setConnectorPolicy, setToolPolicy } from "./connector-policy.ts";
import { createPersona, setSessionPersona, updatePersona } from "./personas.ts";

const TIME_TOOL = exposeToolName("builtin.current_time");
/** Every chat's built-ins, by canonical name, sorted. */
const BUILTINS = [ASK_FOLLOWUP_QUESTION, ATTEMPT_COMPLETION, "builtin.current_time"];
let bed: PolicyTestbed;

beforeAll(async () => {
  bed = await createPolicyTestbed();
});

afterAll(async () => {
  await bed.close();
});

async function canonicalNames(sessionId: string): Promise<string[]> {
  return (await bed.registry.snapshot(sessionId)).tools.map((tool) => tool.canonicalName).sort();
}

/** Runs one text-only turn and returns the tool names its request recorded and the request body. */
async function shownTools(userId: string, sessionId: string) {
  bed.fake.clear();
  bed.fake.script("anthropic", { steps: [{ type: "text", text: "Hello." }] });
  const { turnId } = await bed.manager.startTurn(userId, sessionId, "Hi", ANTHROPIC);
  expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
  const [request] = await bed.db.turnRequest.findMany({ where: { turnId } });
  return { toolNames: request!.toolNames as string[], body: JSON.stringify(bed.fake.requests("anthropic")[0]!.body) };
}

describe("deny", () => {
  it("hides a denied tool from the snapshot and the request, and a denied connector hides all its tools", async () => {
    const { userId, sessionId } = await bed.chatWithFixture("Denier");
    const ref = { sessionId, connectorId: bed.connectorId };
    const echo = (await bed.tool(sessionId, "fixture.echo"))!;
    expect((await shownTools(userId, sessionId)).toolNames).toContain(echo.exposedName);

    await setToolPolicy(bed.deps, userId, { ...ref, toolName: "echo", policy: "deny" });
    expect(await bed.tool(sessionId, "fixture.echo")).toBeUndefined();
    const denied = await shownTools(userId, sessionId);
    expect(denied.toolNames).not.toContain(echo.exposedName);
    expect(denied.toolNames).toContain(TIME_TOOL);
    expect(denied.toolNames.some((name) => name.startsWith("fixture_"))).toBe(true);
    expect(denied.body).not.toContain(`"${echo.exposedName}"`);

    await setToolPolicy(bed.deps, userId, { ...ref, toolName: "echo", policy: null });
    expect(await bed.tool(sessionId, "fixture.echo")).toMatchObject({ policy: "allow" });

    await setConnectorPolicy(bed.deps, userId, { ...ref, policy: "deny" });
    await setToolPolicy(bed.deps, userId, { ...ref, toolName: "slow", policy: "ask" }); // a tool's own policy wins
    expect(await canonicalNames(sessionId)).toEqual([...BUILTINS, "fixture.slow"]);
    expect((await shownTools(userId, sessionId)).toolNames).toEqual([
      TIME_TOOL,
      exposeToolName(ASK_FOLLOWUP_QUESTION),
      exposeToolName(ATTEMPT_COMPLETION),
      (await bed.tool(sessionId, "fixture.slow"))!.exposedName,
    ]);
  });

  it("lets only the chat's owner set a policy", async () => {
    const { sessionId } = await bed.chatWithFixture("Holder");
    const mallory = await createTestUser(bed.db, "Mallory");
    const ref = { sessionId, connectorId: bed.connectorId };
    await expect(setConnectorPolicy(bed.deps, mallory.id, { ...ref, policy: "deny" })).rejects.toMatchObject({
      code: "not_found:session",
    });
    await expect(
      setToolPolicy(bed.deps, mallory.id, { ...ref, toolName: "echo", policy: "deny" }),
    ).rejects.toMatchObject({ code: "not_found:session" });
    expect(await bed.tool(sessionId, "fixture.echo")).toBeDefined();
  });
});

describe("personas", () => {
  it("filter the tools by their allowlist and replace the default system prompt", async () => {
    const { userId, sessionId } = await bed.chatWithFixture("Pirate");
    const persona = await createPersona(bed.deps, userId, {
      name: "Echo pirate",
      systemPrompt: "PERSONA PROMPT: answer like a pirate.",
      toolAllowlist: ["fixture.echo", "fixture.slow"],
    });
    await setSessionPersona(bed.deps, userId, { sessionId, personaId: persona.id });
    expect(await canonicalNames(sessionId)).toEqual(["fixture.echo", "fixture.slow"]);
    const shown = await shownTools(userId, sessionId);
    expect(shown.toolNames).not.toContain(TIME_TOOL);
    expect(shown.toolNames).toHaveLength(2);
    expect(shown.body).toContain("PERSONA PROMPT: answer like a pirate.");
    expect(shown.body).not.toContain(DEFAULT_SYSTEM);

    await updatePersona(bed.deps, userId, persona.id, { toolAllowlist: ["builtin.*"] });
    expect(await canonicalNames(sessionId)).toEqual(BUILTINS);

    await setSessionPersona(bed.deps, userId, { sessionId, personaId: null });
    const plain = await shownTools(userId, sessionId);
    expect(plain.body).toContain(DEFAULT_SYSTEM);
    expect(plain.toolNames.length).toBeGreaterThan(5);
  });

  it("belong to their owner: listed, chosen and changed by nobody else", async () => {
    const alice = await bed.chatWithFixture("Alice");
    const bob = await bed.chatWithFixture("Bob");
    const aliceCaller = createCaller({ db: bed.db, user: { id: alice.userId, name: null, email: null, image: null } });
    const bobCaller = createCaller({ db: bed.db, user: { id: bob.userId, name: null, email: null, image: null } });
    const input = { name: "Reviewer", systemPrompt: "Review code.", toolAllowlist: ["*"] };
    const persona = await aliceCaller.policy.personas.create(input);
    await expect(aliceCaller.policy.personas.create(input)).rejects.toMatchObject({
      cause: { code: "conflict:persona" },
    });
    await expect(
      aliceCaller.policy.personas.create({ ...input, name: "Bad", toolAllowlist: ["echo"] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await aliceCaller.policy.personas.list()).map((p) => p.id)).toEqual([persona.id]);
    expect(await bobCaller.policy.personas.list()).toEqual([]);
    await bobCaller.policy.personas.create(input); // names are per owner

    const bobChat = { sessionId: bob.sessionId, personaId: persona.id };
    await expect(setSessionPersona(bed.deps, bob.userId, bobChat)).rejects.toMatchObject({
      code: "not_found:persona",
    });
    await expect(updatePersona(bed.deps, bob.userId, persona.id, { systemPrompt: "Mine now." })).rejects.toMatchObject({
      code: "not_found:persona",
    });
    const aliceOnBobsChat = { sessionId: bob.sessionId, personaId: persona.id };
    await expect(setSessionPersona(bed.deps, alice.userId, aliceOnBobsChat)).rejects.toMatchObject({
      code: "not_found:session",
    });
    expect((await bed.db.chatSession.findUniqueOrThrow({ where: { id: bob.sessionId } })).personaId).toBeNull();
  });
});

describe("tool-call limits", () => {
  type Result = { isError: boolean; output: { error?: { code: string; message: string } } };

  async function toolCallTurn(manager: typeof bed.manager, userId: string, sessionId: string, calls: number) {
    bed.fake.clear();
    const steps = Array.from({ length: calls }, () => ({ type: "tool-call" as const, name: TIME_TOOL, args: {} }));
    bed.fake.script("anthropic", { steps });
    bed.fake.script("anthropic", { steps: [{ type: "text", text: "Done." }] });
    const { turnId } = await manager.startTurn(userId, sessionId, "Check the time", ANTHROPIC);
    expect((await waitForTurnEnd(bed.db, turnId)).status).toBe("completed");
    const tool = (await sessionMessages(bed.db, sessionId)).filter((m) => m.turnId === turnId && m.role === "tool");
    const results = tool[0]!.parts as Result[];
    return { turnId, codes: results.map((r) => r.output.error?.code ?? "ok"), results };
  }

  it("skips the calls of one response beyond the per-response limit and tells the model and the user", async () => {
    const capped = bed.startManager({ toolCallsPerResponse: 2 });
    const { userId, sessionId } = await bed.chatWithFixture("Greedy");
    const { turnId, codes, results } = await toolCallTurn(capped, userId, sessionId, 3);
    expect(codes).toEqual(["ok", "ok", "too_many_calls"]);
    expect(results[2]!.isError).toBe(true);
    expect(JSON.stringify(bed.fake.requests("anthropic")[1]!.body)).toContain("at most 2 run per response");
    const event = await bed.event(turnId, "limit.reached");
    expect(event).toMatchObject({ limit: "tool_calls_per_response", max: 2 });
    expect(event.callIds).toHaveLength(1);
  });

  it("rate-limits the calls of a chat beyond the per-minute limit, across turns", async () => {
    const limited = bed.startManager({ toolCallsPerMinute: 3, toolCallsPerResponse: 2 });
    const { userId, sessionId } = await bed.chatWithFixture("Hasty");
    const first = await toolCallTurn(limited, userId, sessionId, 3);
    expect(first.codes).toEqual(["ok", "ok", "too_many_calls"]); // a skipped call is not counted

    const second = await toolCallTurn(limited, userId, sessionId, 2);
    expect(second.codes).toEqual(["ok", "rate_limited"]);
    expect(second.results[1]!.output.error!.message).toMatch(/^rate limited: 3 calls per minute/);
    expect(JSON.stringify(bed.fake.requests("anthropic")[1]!.body)).toContain("rate limited: 3 calls per minute");
    expect(await bed.event(second.turnId, "limit.reached")).toMatchObject({ limit: "tool_calls_per_minute", max: 3 });

    expect((await toolCallTurn(limited, userId, sessionId, 1)).codes).toEqual(["rate_limited"]);
    const other = await bed.chatWithFixture("Patient");
    expect((await toolCallTurn(limited, other.userId, other.sessionId, 1)).codes).toEqual(["ok"]);
  });

  it("records the step limit as a limit.reached event as well as the turn's error", async () => {
    const short = bed.startManager({ maxSteps: 1 });
    const { userId, sessionId } = await bed.chatWithFixture("Looper");
    bed.fake.clear();
    bed.fake.script("anthropic", { steps: [{ type: "tool-call", name: TIME_TOOL, args: {} }] });
    const { turnId } = await short.startTurn(userId, sessionId, "Loop", ANTHROPIC);
    expect((await waitForTurnEnd(bed.db, turnId)).error).toMatchObject({ code: "step_limit" });
    expect(await bed.event(turnId, "limit.reached")).toMatchObject({ limit: "steps", max: 1 });
  });
});
