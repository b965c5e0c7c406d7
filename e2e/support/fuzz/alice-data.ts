// The first user's real records for the fuzz spec's id replay (e2e/external/fuzz.spec.ts): one of
// every kind of record a tRPC input names by id (ALICE_KINDS; the spec checks the router map asks for
// no other), made through the app itself. Her main chat has a finished tool round, a pinned note and
// a turn paused on her approval of a tool call; a second chat has a turn paused on a followup
// question (the fake provider in echo mode calls the tool the message names). `snapshot` reads back
// only what was made here — specs running beside this one add records of their own for Alice.
import { expect, type APIRequestContext } from "@playwright/test";

import { trpcMutation, trpcQuery, type TrpcResult } from "../trpc-http.ts";

export const ALICE_KINDS = [
  "session",
  "message",
  "turn",
  "connector",
  "account",
  "persona",
  "approval",
  "call",
  "login",
  "question",
  "overlay",
] as const;
export type AliceKind = (typeof ALICE_KINDS)[number];

export type AliceData = {
  ids: Record<AliceKind, string>;
  /** Her records as she reads them, to compare before and after the replay. */
  snapshot: () => Promise<unknown>;
};

type History = {
  messages: { id: string; role: string; turnId: string | null }[];
  turns: { id: string; status: string }[];
  approvals: { id: string; callId: string; status: string }[];
  questions: { id: string; status: string }[];
  lastEventId: string | null;
};

/** The data of a call that must succeed. */
async function data<T>(result: Promise<TrpcResult>): Promise<T> {
  const settled = await result;
  expect(settled.status, JSON.stringify(settled.error)).toBe(200);
  return settled.data as T;
}

/** Sends `text` in chat `sessionId` and waits until its history satisfies `isReady`. */
async function sendAndWait(
  request: APIRequestContext,
  sessionId: string,
  text: string,
  isReady: (history: History) => boolean,
): Promise<{ turnId: string; history: History }> {
  const { turnId } = await data<{ turnId: string }>(trpcMutation(request, "chat.send", { sessionId, text }));
  let history: History | undefined;
  await expect(async () => {
    history = await data<History>(trpcQuery(request, "chat.history", { sessionId }));
    expect(isReady(history), `chat ${sessionId} after "${text}": ${JSON.stringify(history.turns)}`).toBe(true);
  }).toPass({ timeout: 30_000 });
  return { turnId, history: history! };
}

export async function createAliceData(request: APIRequestContext): Promise<AliceData> {
  const session = await data<{ id: string }>(trpcMutation(request, "session.create", { title: "Alice's fuzz target" }));
  const connectors = await data<{ id: string; name: string }[]>(trpcQuery(request, "connectors.list"));
  const everything = connectors.find((connector) => connector.name === "everything")!;
  const own = await data<{ id: string }>(
    trpcMutation(request, "connectors.create", {
      name: `alice-fuzz-${Date.now()}`,
      transport: "streamable-http",
      url: "https://203.0.113.21/mcp",
    }),
  );
  const account = await data<{ id: string }>(
    trpcMutation(request, "accounts.addApiKey", {
      provider: "anthropic",
      label: "Alice's key",
      apiKey: "sk-alice-fuzz-0001",
    }),
  );
  const persona = await data<{ id: string }>(
    trpcMutation(request, "policy.personas.create", {
      name: "Alice's persona",
      systemPrompt: "Be brief.",
      toolAllowlist: [],
    }),
  );
  const login = await data<{ loginId: string }>(trpcMutation(request, "providerLogins.start", { flow: "anthropic" }));

  // A finished tool round, then a note pinned to the chat's context.
  const finished = await sendAndWait(
    request,
    session.id,
    'use tool builtin_current_time {"timezone":"UTC"}',
    (history) => history.turns.some((turn) => turn.status === "completed"),
  );
  const message = finished.history.messages.find((candidate) => candidate.role === "user")!;
  const pinned = await data<{ overlays: { id: string; kind: string }[] }>(
    trpcMutation(request, "overlays.pin", { sessionId: session.id, text: "Alice's pinned fuzz note." }),
  );
  const overlay = pinned.overlays.find((candidate) => candidate.kind === "pin")!;

  // A turn paused on her approval of a tool call.
  const policy = { sessionId: session.id, connectorId: everything.id };
  await data(trpcMutation(request, "policy.setConnectorPolicy", { ...policy, policy: "ask" }));
  await data(trpcMutation(request, "tools.setConnector", { ...policy, enabled: true }));
  const paused = await sendAndWait(request, session.id, 'use tool everything_get-sum {"a":2,"b":3}', (history) =>
    history.approvals.some((approval) => approval.status === "pending"),
  );
  const approval = paused.history.approvals.find((candidate) => candidate.status === "pending")!;

  // A second chat whose turn waits on her answer to a question.
  const asking = await data<{ id: string }>(
    trpcMutation(request, "session.create", { title: "Alice's fuzz question" }),
  );
  const args = { question: "Which fuzz colour, Alice?", options: ["Red", "Blue"] };
  const asked = await sendAndWait(
    request,
    asking.id,
    `use tool builtin_ask_followup_question ${JSON.stringify(args)}`,
    (history) => history.questions.some((question) => question.status === "pending"),
  );
  const question = asked.history.questions.find((candidate) => candidate.status === "pending")!;

  const mine = <T extends { id: string }>(list: T[], ...ids: string[]) => list.filter((item) => ids.includes(item.id));
  const snapshot = async () => {
    const tools = await data<{ connectors: { id: string }[] }>(
      trpcQuery(request, "tools.state", { sessionId: session.id }),
    );
    return {
      session: await data(trpcQuery(request, "session.get", { id: session.id })),
      history: await data(trpcQuery(request, "chat.history", { sessionId: session.id })),
      overlays: await data(trpcQuery(request, "overlays.list", { sessionId: session.id })),
      asking: await data(trpcQuery(request, "chat.history", { sessionId: asking.id })),
      tools: { ...tools, connectors: mine(tools.connectors, own.id, everything.id) },
      connectors: mine(await data<{ id: string }[]>(trpcQuery(request, "connectors.list")), own.id, everything.id),
      accounts: mine(await data<{ id: string }[]>(trpcQuery(request, "accounts.list")), account.id),
      personas: mine(await data<{ id: string }[]>(trpcQuery(request, "policy.personas.list")), persona.id),
    };
  };
  return {
    ids: {
      session: session.id,
      message: message.id,
      turn: paused.turnId,
      connector: own.id,
      account: account.id,
      persona: persona.id,
      approval: approval.id,
      call: approval.callId,
      login: login.loginId,
      question: question.id,
      overlay: overlay.id,
    },
    snapshot,
  };
}
