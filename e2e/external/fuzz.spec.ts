// Every tRPC procedure, driven like a hostile client against the production build: the procedure
// list and input schemas come from the router itself (e2e/support/fuzz/router-map.ts), so a new
// procedure is covered without anyone listing it. For each: no cookie, the wrong method, wrong
// types, missing and extra fields, huge strings, NUL bytes and lone surrogates, malformed and
// truncated bodies, a malformed ?input= — and a second user replaying the first user's real ids
// (every id any input takes, found in the input schemas: e2e/support/fuzz/id-kinds.ts), which must
// look missing and change nothing of hers, also inside a chat of his own. Asserted: no 5xx at all;
// each refusal a 4xx with an app code and a message in words; no internals (stack, SQL, Prisma, file
// paths) in any body.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import type { Page } from "@playwright/test";

import { ALICE, BOB, EXTERNAL_APP_URL } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { ALICE_KINDS, createAliceData, type AliceKind } from "../support/fuzz/alice-data.ts";
import { fuzzCases, idFieldsOf, replayInput, type IdFor, type JsonSchema } from "../support/fuzz/cases.ts";
import { callRaw, methodFor, type Reply } from "../support/fuzz/client.ts";
import { idKind, idLikeFieldsOf } from "../support/fuzz/id-kinds.ts";
import type { ProcedureInfo } from "../support/fuzz/router-map.ts";
import { trpcMutation } from "../support/trpc-http.ts";

test.describe.configure({ timeout: 600_000 });

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

function isAliceKind(kind: string | undefined): kind is AliceKind {
  return (ALICE_KINDS as readonly string[]).includes(kind ?? "");
}

/** A query whose ids are all optional filters what it reads rather than naming what it acts on. */
function isFilterQuery(procedure: ProcedureInfo, idFor: IdFor): boolean {
  const schema = procedure.input as JsonSchema | null;
  if (procedure.type !== "query" || !schema || schema.anyOf) return false;
  return idFieldsOf(procedure, idFor).every((field) => !schema.required?.includes(field));
}

function send(cookie: string, procedure: ProcedureInfo, input: unknown): Promise<Reply> {
  return callRaw(EXTERNAL_APP_URL, procedure, JSON.stringify({ json: input }), { cookie });
}

/**
 * A filter of a read (metrics of one chat) replayed: Bob must read Alice's id exactly as an id that
 * does not exist, while Alice's own id must select something of hers (else this proves nothing).
 */
async function replayFilter(
  procedure: ProcedureInfo,
  input: unknown,
  missing: unknown,
  cookies: { alice: string; bob: string },
): Promise<string | null> {
  const readBoth = (cookie: string) => Promise.all([send(cookie, procedure, input), send(cookie, procedure, missing)]);
  const [hers, hersMissing] = await readBoth(cookies.alice);
  if (hers.status !== 200 || hers.text === hersMissing.text)
    return `Alice's own ids select nothing of hers, so Bob's replay proves nothing (${hers.text.slice(0, 200)})`;
  // Specs running beside this one may change Bob's figures between the two reads: three tries.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [bobs, bobsMissing] = await readBoth(cookies.bob);
    if (bobs.status === 200 && bobs.text === bobsMissing.text) return null;
  }
  return `Bob reads ${JSON.stringify(input)} otherwise than an id that does not exist`;
}

let procedures: ProcedureInfo[] = [];

test.beforeAll(() => {
  procedures = loadRouterMap();
});

test("the generator finds every procedure the routers declare, and can fill every id they take", () => {
  expect(procedures.length).toBe(countDeclaredProcedures());
  expect(procedures.length).toBeGreaterThan(40);
  const marked: IdFor = (procedurePath, field) => {
    const kind = idKind(procedurePath, field);
    return kind ? `marked-${kind}` : undefined;
  };
  const problems: string[] = [];
  let idFields = 0;
  for (const procedure of procedures) {
    try {
      fuzzCases(procedure, missingIds);
      const replays = JSON.stringify(replayInput(procedure, marked));
      for (const field of idLikeFieldsOf(procedure)) {
        const kind = idKind(procedure.path, field);
        if (kind === undefined) continue;
        idFields++;
        if (!isAliceKind(kind))
          problems.push(
            `${procedure.path} takes ${field}: give Alice a real ${kind} in e2e/support/fuzz/alice-data.ts`,
          );
        else if (!new RegExp(`"${field}":\\[?"marked-`).test(replays))
          problems.push(`${procedure.path} takes ${field}: the replay does not fill it (${replays.slice(0, 200)})`);
      }
    } catch (error) {
      problems.push(`${procedure.path}: ${(error as Error).message}`);
    }
  }
  expect(problems).toEqual([]);
  expect(idFields).toBeGreaterThan(50);
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
  const aliceData = await createAliceData(alice.request);
  const before = await aliceData.snapshot();
  const aliceCookie = await cookieOf(alice);

  const bob = await openAs(BOB);
  const bobCookie = await cookieOf(bob);
  const bobsChat = await trpcMutation(bob.request, "session.create", { title: "Bob's own chat" });
  expect(bobsChat.status).toBe(200);
  const bobsSessionId = (bobsChat.data as { id: string }).id;
  const aliceIds: IdFor = (procedurePath, field) => {
    const kind = idKind(procedurePath, field);
    if (!kind) return undefined;
    if (!isAliceKind(kind)) throw new Error(`no real ${kind} id of Alice's to replay (${procedurePath}.${field})`);
    return aliceData.ids[kind];
  };
  // Bob's own chat, with everything else it names Alice's: the chat check alone must not let them through.
  const inBobsChat: IdFor = (procedurePath, field) =>
    idKind(procedurePath, field) === "session" ? bobsSessionId : aliceIds(procedurePath, field);
  const holdsOthersOfAlice = (input: unknown) =>
    Object.entries(aliceData.ids).some(([kind, id]) => kind !== "session" && JSON.stringify(input).includes(`"${id}"`));

  const problems: string[] = [];
  const replayed: string[] = [];
  const counts = { calls: 0, inBobsChat: 0, filters: 0 };
  for (const procedure of procedures) {
    const kinds = new Set(idFieldsOf(procedure, aliceIds).map((field) => idKind(procedure.path, field)));
    if (kinds.size === 0) continue;
    replayed.push(procedure.path);
    if (isFilterQuery(procedure, aliceIds)) {
      const problem = await replayFilter(
        procedure,
        replayInput(procedure, aliceIds)[0],
        replayInput(procedure, missingIds)[0],
        {
          alice: aliceCookie,
          bob: bobCookie,
        },
      );
      if (problem) problems.push(`${procedure.path}: ${problem}`);
      counts.filters++;
      continue;
    }
    const inputs = replayInput(procedure, aliceIds).map((input) => ({ input, expected: "not_found:" }));
    if (kinds.has("session") && kinds.size > 1)
      for (const input of replayInput(procedure, inBobsChat).filter(holdsOthersOfAlice))
        inputs.push({ input, expected: "not_found:(?!session)" });
    for (const { input, expected } of inputs) {
      const reply = await send(bobCookie, procedure, input);
      counts.calls++;
      if (expected !== "not_found:") counts.inBobsChat++;
      const problem = problemWith(reply);
      const appCode = reply.error?.data?.appCode;
      if (problem) problems.push(`${procedure.path} ${JSON.stringify(input)}: ${problem}`);
      else if (reply.status !== 404 || typeof appCode !== "string" || !new RegExp(`^${expected}`).test(appCode))
        problems.push(
          `${procedure.path} ${JSON.stringify(input)}: expected 404 ${expected}, got ${reply.status} ${reply.text.slice(0, 200)}`,
        );
    }
  }
  console.log(
    `replay: ${counts.calls} calls by Bob with Alice's ids over ${replayed.length} procedures (${counts.inBobsChat} in a chat of his own), ${counts.filters} filter(s) read as a missing id`,
  );
  expect(problems).toEqual([]);
  expect(replayed).toEqual(expect.arrayContaining(["questions.answer", "overlays.remove", "metrics.view"]));

  // Alice's records are as they were: her turns still wait on her approval and her answer, her pinned
  // note is still pinned, nothing renamed or removed — and they are still hers to use.
  expect(await aliceData.snapshot()).toEqual(before);
  const poll = await trpcMutation(alice.request, "providerLogins.poll", { loginId: aliceData.ids.login });
  expect(poll.status).not.toBe(404);
  const answer = { questionId: aliceData.ids.question, answer: "Blue" };
  const answered = await trpcMutation(alice.request, "questions.answer", answer);
  expect(answered.status, JSON.stringify(answered.error)).toBe(200);
  expect(answered.data).toMatchObject({ id: aliceData.ids.question, status: "answered", answer: "Blue" });
  const unpinned = await trpcMutation(alice.request, "overlays.remove", { overlayId: aliceData.ids.overlay });
  expect(unpinned.status, JSON.stringify(unpinned.error)).toBe(200);
  await trpcMutation(alice.request, "policy.decideApproval", { approvalId: aliceData.ids.approval, decision: "deny" });
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
