// Every tRPC procedure, driven like a hostile client against the production build: the procedure
// list and input schemas come from the router itself (e2e/support/fuzz/router-map.ts), so a new
// procedure is covered without anyone listing it. For each: no cookie, the wrong method, wrong
// types, missing and extra fields, huge strings, NUL bytes and lone surrogates, malformed and
// truncated bodies, a malformed ?input= — and a second user replaying the first user's real ids
// (sessions, messages, turns, connectors, accounts, personas, approvals, sign-ins), which must look
// missing and change nothing of hers. Asserted: no 5xx at all; each refusal a 4xx with an app code
// and a message in words; no internals (stack, SQL, Prisma, file paths) in any body.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import type { Page } from "@playwright/test";

import { ALICE, BOB, EXTERNAL_APP_URL } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { fuzzCases, idFieldsOf, replayInput, type IdFor } from "../support/fuzz/cases.ts";
import { callRaw, methodFor, type Reply } from "../support/fuzz/client.ts";
import type { ProcedureInfo } from "../support/fuzz/router-map.ts";
import { trpcMutation, trpcQuery } from "../support/trpc-http.ts";

test.describe.configure({ timeout: 600_000 });

/** Which kind of record an id field names; `id` alone is named by the router it is in (below). */
const ID_FIELDS: Record<string, string> = {
  sessionId: "session",
  messageId: "message",
  turnId: "turn",
  connectorId: "connector",
  personaId: "persona",
  approvalId: "approval",
  loginId: "login",
  accountId: "account",
  callId: "call",
};
const ID_BY_ROUTER: [string, string][] = [
  ["policy.personas.", "persona"],
  ["session.", "session"],
  ["connectors.", "connector"],
  ["accounts.", "account"],
];

function idKind(procedurePath: string, field: string): string | undefined {
  if (field !== "id") return ID_FIELDS[field];
  const kind = ID_BY_ROUTER.find(([prefix]) => procedurePath.startsWith(prefix))?.[1];
  if (!kind) throw new Error(`${procedurePath} takes an \`id\`: say in fuzz.spec.ts (ID_BY_ROUTER) what it names`);
  return kind;
}

const missingIds: IdFor = (procedurePath, field) => {
  const kind = idKind(procedurePath, field);
  return kind ? `fuzz-missing-${kind}` : undefined;
};

/** Bodies that give away internals: a stack frame, a file path, SQL, Prisma, a driver error. */
const INTERNALS =
  /\n\s+at\s|node_modules|\/work\/|\.tsx?:\d|webpack|prisma|\bSELECT\s|\bINSERT\s+INTO|\bUPDATE\s+"|syntax for type|ECONNREFUSED|postgres(ql)?:\/\/|\bP\d{4}\b|"stack"\s*:/i;

function loadRouterMap(): ProcedureInfo[] {
  const tsx = path.resolve("node_modules/.bin/tsx");
  return JSON.parse(execFileSync(tsx, ["e2e/support/fuzz/router-map.ts"], { encoding: "utf8" })) as ProcedureInfo[];
}

/** Procedures declared in server/api/routers/*.ts, counted from the source (`protectedProcedure.` …). */
function countDeclaredProcedures(): number {
  const folder = path.resolve("server/api/routers");
  return readdirSync(folder)
    .filter((file) => file.endsWith(".ts") && !file.includes(".test."))
    .map(
      (file) =>
        readFileSync(path.join(folder, file), "utf8").match(/\b(?:protected|public)Procedure\s*\./g)?.length ?? 0,
    )
    .reduce((sum, count) => sum + count, 0);
}

async function cookieOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies(EXTERNAL_APP_URL);
  return cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
}

/** What is wrong with one reply, or null: 5xx, a refusal without words or code, internals in the body. */
function problemWith(reply: Reply): string | null {
  if (reply.status >= 500) return `status ${reply.status}: ${reply.text.slice(0, 300)}`;
  if (INTERNALS.test(reply.text)) return `internals in the body: ${reply.text.slice(0, 300)}`;
  if (reply.status < 400) return null;
  const message = reply.error?.message;
  if (typeof message !== "string" || !/[A-Za-z]{2,}(\s+\S+){2,}/.test(message))
    return `status ${reply.status} without a message in words: ${reply.text.slice(0, 300)}`;
  if (typeof reply.error?.data?.appCode !== "string") return `status ${reply.status} without an app code`;
  return null;
}

type AliceData = {
  ids: Record<string, string>;
  snapshot: () => Promise<unknown>;
};

/** Alice's real records, one of each kind, with a turn waiting on her approval of a tool call. */
async function createAliceData(alice: Page): Promise<AliceData> {
  const request = alice.request;
  const data = async <T>(result: Promise<{ status: number; data?: unknown; error?: unknown }>): Promise<T> => {
    const settled = await result;
    expect(settled.status, JSON.stringify(settled.error)).toBe(200);
    return settled.data as T;
  };
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
  await data(
    trpcMutation(request, "policy.setConnectorPolicy", {
      sessionId: session.id,
      connectorId: everything.id,
      policy: "ask",
    }),
  );
  await data(
    trpcMutation(request, "tools.setConnector", { sessionId: session.id, connectorId: everything.id, enabled: true }),
  );
  const turn = await data<{ turnId: string }>(
    trpcMutation(request, "chat.send", { sessionId: session.id, text: 'use tool everything_get-sum {"a":2,"b":3}' }),
  );

  type History = {
    messages: { id: string; role: string }[];
    approvals: { id: string; callId: string; status: string }[];
  };
  let history: History | undefined;
  await expect(async () => {
    history = await data<History>(trpcQuery(request, "chat.history", { sessionId: session.id }));
    expect(history.approvals.filter((approval) => approval.status === "pending")).toHaveLength(1);
  }).toPass({ timeout: 30_000 });
  const approval = history!.approvals[0]!;
  const message = history!.messages.find((candidate) => candidate.role === "user")!;

  // Only the records made here: specs running beside this one add their own records for Alice.
  const mine = <T extends { id: string }>(list: T[], ...ids: string[]) => list.filter((item) => ids.includes(item.id));
  const snapshot = async () => {
    const tools = await data<{ connectors: { id: string }[] }>(
      trpcQuery(request, "tools.state", { sessionId: session.id }),
    );
    return {
      session: await data(trpcQuery(request, "session.get", { id: session.id })),
      history: await data(trpcQuery(request, "chat.history", { sessionId: session.id })),
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
      turn: turn.turnId,
      connector: own.id,
      account: account.id,
      persona: persona.id,
      approval: approval.id,
      call: approval.callId,
      login: login.loginId,
    },
    snapshot,
  };
}

let procedures: ProcedureInfo[] = [];

test.beforeAll(() => {
  procedures = loadRouterMap();
});

test("the generator finds every procedure the routers declare, and knows what each id names", () => {
  expect(procedures.length).toBe(countDeclaredProcedures());
  expect(procedures.length).toBeGreaterThan(40);
  for (const procedure of procedures) expect(() => fuzzCases(procedure, missingIds)).not.toThrow();
});

test("without a session cookie every procedure answers 401 in words", async () => {
  const problems: string[] = [];
  for (const procedure of procedures) {
    const [sample] = replayInput(procedure, missingIds);
    const body = sample === undefined ? undefined : JSON.stringify({ json: sample });
    const reply = await callRaw(EXTERNAL_APP_URL, procedure, body);
    const problem = problemWith(reply);
    if (problem) problems.push(`${procedure.path}: ${problem}`);
    else if (reply.status !== 401 || reply.error?.data?.appCode !== "unauthorized:auth")
      problems.push(
        `${procedure.path}: expected 401 unauthorized:auth, got ${reply.status} ${reply.text.slice(0, 200)}`,
      );
  }
  expect(problems).toEqual([]);
});

test("hostile input to every procedure gets a 4xx in words, never a 5xx, never internals", async ({ openAs }) => {
  // As Bob: the few records hostile input may create (a "New chat" with extra fields) stay out of Alice's lists.
  const cookie = await cookieOf(await openAs(BOB));
  const problems: string[] = [];
  const counts = { requests: 0, refusals: 0, accepted: 0 };
  for (const procedure of procedures) {
    const wrongMethod = await callRaw(EXTERNAL_APP_URL, procedure, undefined, {
      cookie,
      method: methodFor(procedure, true),
    });
    counts.requests++;
    if (wrongMethod.status !== 405 || problemWith(wrongMethod))
      problems.push(`${procedure.path} wrong method: ${wrongMethod.status} ${problemWith(wrongMethod) ?? ""}`);

    for (const fuzz of fuzzCases(procedure, missingIds)) {
      const isGet = methodFor(procedure) === "GET";
      // A URL carries at most ~16 KB of headers in Node: a GET's huge input is cut to 6,000 characters.
      const body =
        isGet && fuzz.body && fuzz.body.length > 6_000 ? fuzz.body.replace(/x{6000,}/, "x".repeat(6_000)) : fuzz.body;
      const reply = await callRaw(EXTERNAL_APP_URL, procedure, body, { cookie });
      counts.requests++;
      if (reply.status >= 400) counts.refusals++;
      else counts.accepted++;
      const problem = problemWith(reply);
      if (problem) problems.push(`${procedure.path} (${fuzz.name}): ${problem}`);
    }
  }
  console.log(
    `fuzz: ${counts.requests} requests over ${procedures.length} procedures; ${counts.refusals} refused (4xx), ${counts.accepted} accepted`,
  );
  expect(problems).toEqual([]);
});

test("a second user replaying the first user's real ids on every procedure finds nothing and changes nothing", async ({
  openAs,
}) => {
  const alice = await openAs(ALICE);
  const aliceData = await createAliceData(alice);
  const before = await aliceData.snapshot();

  const bob = await openAs(BOB);
  const bobCookie = await cookieOf(bob);
  const aliceIds: IdFor = (procedurePath, field) => {
    const kind = idKind(procedurePath, field);
    if (!kind) return undefined;
    const id = aliceData.ids[kind];
    if (!id) throw new Error(`no real ${kind} id of Alice's to replay (${procedurePath}.${field})`);
    return id;
  };

  const problems: string[] = [];
  const replayed: string[] = [];
  for (const procedure of procedures) {
    if (idFieldsOf(procedure, aliceIds).length === 0) continue;
    for (const input of replayInput(procedure, aliceIds)) {
      const reply = await callRaw(EXTERNAL_APP_URL, procedure, JSON.stringify({ json: input }), { cookie: bobCookie });
      replayed.push(procedure.path);
      const problem = problemWith(reply);
      const appCode = reply.error?.data?.appCode;
      if (problem) problems.push(`${procedure.path} ${JSON.stringify(input)}: ${problem}`);
      else if (reply.status !== 404 || typeof appCode !== "string" || !appCode.startsWith("not_found:"))
        problems.push(
          `${procedure.path} ${JSON.stringify(input)}: expected 404 not_found, got ${reply.status} ${reply.text.slice(0, 200)}`,
        );
    }
  }
  console.log(`replay: ${replayed.length} calls by Bob with Alice's ids over ${new Set(replayed).size} procedures`);
  expect(problems).toEqual([]);
  // Every procedure that takes an id was replayed.
  const takingIds = procedures.filter((procedure) => idFieldsOf(procedure, aliceIds).length > 0).map((p) => p.path);
  expect(new Set(replayed)).toEqual(new Set(takingIds));

  // Alice's records are as they were: her turn still waits on her approval, nothing renamed or removed.
  expect(await aliceData.snapshot()).toEqual(before);
  const poll = await trpcMutation(alice.request, "providerLogins.poll", { loginId: aliceData.ids.login! });
  expect(poll.status).not.toBe(404);
  await trpcMutation(alice.request, "policy.decideApproval", { approvalId: aliceData.ids.approval!, decision: "deny" });
});

test("the MCP OAuth callback refuses NUL and oversized parameters with a 400 in words", async () => {
  // (A percent-encoded lone surrogate cannot arrive: URL decoding turns invalid UTF-8 into U+FFFD.)
  for (const search of ["?state=%00&code=x", "?state=abc&code=a%00b", `?state=${"s".repeat(5_000)}&code=x`]) {
    const response = await fetch(`${EXTERNAL_APP_URL}/api/mcp-oauth/callback${search}`, { redirect: "manual" });
    const text = await response.text();
    expect(response.status, search.slice(0, 40)).toBe(400);
    const body = JSON.parse(text) as { code: string; message: string };
    expect(body.code).toBe("bad_request:api");
    expect(body.message).toMatch(/^Check the input — (state|code): /);
    expect(text).not.toMatch(INTERNALS);
  }
});

test("a body over 1 MiB is refused with 413 in words before it is read", async () => {
  const procedure = { path: "session.rename", type: "mutation", input: null } as const;
  const huge = JSON.stringify({ json: { id: "x", title: "y".repeat(2_000_000) } });
  const reply = await callRaw(EXTERNAL_APP_URL, procedure, huge);
  expect(reply.status).toBe(413);
  const body = JSON.parse(reply.text) as { code: string; message: string };
  expect(body.code).toBe("too_large:api");
  expect(body.message).toMatch(/^The request is too large \(1 MiB at most; this one declares \d+ bytes\)\.$/);
});
