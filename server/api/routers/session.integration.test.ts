// The `session` router against a real Postgres, twice over: through createCaller (what server code
// sees) and through the tRPC fetch adapter with real Request objects (what a browser sees: HTTP
// status, superjson envelope, app error code, zod issues). Ownership is the point: another user's
// session must look exactly like a missing one and must survive every attempt to touch it.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { SessionUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../../e2e/support/testbeds/database.ts";
import { appRouter, createCaller } from "../root.ts";

const GENERIC_MESSAGE = "Something went wrong on the server.";

let testDb: TestDatabase;
let alice: SessionUser;
let bob: SessionUser;

async function createSessionUser(db: Db, name: string): Promise<SessionUser> {
  const user = await createTestUser(db, name);
  return { id: user.id, name: user.name, email: user.email, image: null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asserts a rejection is the tRPC error `trpcCode`, carrying an AppError with `appCode`. */
async function expectTRPCError(promise: Promise<unknown>, trpcCode: string, appCode: string): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toMatchObject({ name: "TRPCError", code: trpcCode });
  const cause = (error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(AppError);
  expect((cause as AppError).code).toBe(appCode);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  alice = await createSessionUser(testDb.db, "Alice");
  bob = await createSessionUser(testDb.db, "Bob");
});

afterAll(async () => {
  await testDb?.drop();
});

describe("session router through createCaller", () => {
  it("creates a session with the default title or a given one", async () => {
    const caller = createCaller({ db: testDb.db, user: alice });
    const untitled = await caller.session.create();
    expect(untitled.title).toBe("New chat");
    expect(untitled.createdAt).toBeInstanceOf(Date);
    const titled = await caller.session.create({ title: "  Release notes  " });
    expect(titled.title).toBe("Release notes");
    expect(Object.keys(titled).sort()).toEqual(["createdAt", "id", "title", "updatedAt"]);
  });

  it("lists only the caller's sessions, most recently updated first", async () => {
    const user = await createSessionUser(testDb.db, "Lister");
    const caller = createCaller({ db: testDb.db, user });
    const first = await caller.session.create({ title: "first" });
    await sleep(10);
    const second = await caller.session.create({ title: "second" });
    await sleep(10);
    const third = await caller.session.create({ title: "third" });
    expect((await caller.session.list()).map((s) => s.id)).toEqual([third.id, second.id, first.id]);

    await sleep(10);
    await caller.session.rename({ id: first.id, title: "first, renamed" });
    const list = await caller.session.list();
    expect(list.map((s) => s.id)).toEqual([first.id, third.id, second.id]);
    expect(list[0]?.title).toBe("first, renamed");
  });

  it("gets, renames and deletes a session", async () => {
    const caller = createCaller({ db: testDb.db, user: alice });
    const created = await caller.session.create({ title: "draft" });
    expect(await caller.session.get({ id: created.id })).toEqual(created);

    const renamed = await caller.session.rename({ id: created.id, title: "final" });
    expect(renamed).toMatchObject({ id: created.id, title: "final", createdAt: created.createdAt });
    expect(renamed.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
    expect((await caller.session.get({ id: created.id })).title).toBe("final");

    expect(await caller.session.delete({ id: created.id })).toEqual({ id: created.id });
    await expectTRPCError(caller.session.get({ id: created.id }), "NOT_FOUND", "not_found:session");
    expect((await caller.session.list()).map((s) => s.id)).not.toContain(created.id);
    await expectTRPCError(caller.session.delete({ id: created.id }), "NOT_FOUND", "not_found:session");
  });

  it("hides one user's session from another and leaves it untouched", async () => {
    const asAlice = createCaller({ db: testDb.db, user: alice });
    const asBob = createCaller({ db: testDb.db, user: bob });
    const secret = await asAlice.session.create({ title: "Alice's plans" });

    expect((await asBob.session.list()).map((s) => s.id)).not.toContain(secret.id);
    await expectTRPCError(asBob.session.get({ id: secret.id }), "NOT_FOUND", "not_found:session");
    await expectTRPCError(
      asBob.session.rename({ id: secret.id, title: "Bob was here" }),
      "NOT_FOUND",
      "not_found:session",
    );
    await expectTRPCError(asBob.session.delete({ id: secret.id }), "NOT_FOUND", "not_found:session");

    expect(await asAlice.session.get({ id: secret.id })).toEqual(secret);
    const row = await testDb.db.chatSession.findUnique({ where: { id: secret.id } });
    expect(row).toMatchObject({ ownerId: alice.id, title: "Alice's plans", updatedAt: secret.updatedAt });
  });

  it("refuses every procedure without a signed-in user", async () => {
    const anonymous = createCaller({ db: testDb.db, user: null });
    await expectTRPCError(anonymous.session.list(), "UNAUTHORIZED", "unauthorized:auth");
    await expectTRPCError(anonymous.session.create(), "UNAUTHORIZED", "unauthorized:auth");
    await expectTRPCError(anonymous.session.get({ id: "anything" }), "UNAUTHORIZED", "unauthorized:auth");
    await expectTRPCError(anonymous.session.delete({ id: "anything" }), "UNAUTHORIZED", "unauthorized:auth");
  });
});

type ErrorBody = {
  error: {
    json: {
      message: string;
      code: number;
      data: {
        code: string;
        httpStatus: number;
        appCode: string | null;
        zodIssues: { path: (string | number)[]; message: string }[] | null;
      };
    };
  };
};

/** Sends one request through the same fetch adapter app/api/trpc/[trpc]/route.ts uses. */
function send(request: Request, context: { db: Db; user: SessionUser | null }): Promise<Response> {
  return fetchRequestHandler({ endpoint: "/api/trpc", req: request, router: appRouter, createContext: () => context });
}

function mutation(procedure: string, input: unknown): Request {
  return new Request(`http://localhost/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(superjson.serialize(input)),
  });
}

function query(procedure: string, input?: unknown): Request {
  const url = new URL(`http://localhost/api/trpc/${procedure}`);
  if (input !== undefined) url.searchParams.set("input", JSON.stringify(superjson.serialize(input)));
  return new Request(url);
}

async function readError(response: Response): Promise<{ text: string; body: ErrorBody }> {
  const text = await response.text();
  return { text, body: JSON.parse(text) as ErrorBody };
}

describe("session router over HTTP", () => {
  it("answers a query in the superjson envelope, dates intact", async () => {
    const created = await createCaller({ db: testDb.db, user: alice }).session.create({ title: "over http" });
    const response = await send(query("session.get", { id: created.id }), { db: testDb.db, user: alice });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: Parameters<typeof superjson.deserialize>[0] } };
    expect(superjson.deserialize(body.result.data)).toEqual(created);
  });

  it("renames with a POST body in the superjson envelope", async () => {
    const created = await createCaller({ db: testDb.db, user: alice }).session.create();
    const request = new Request("http://localhost/api/trpc/session.rename", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: { id: created.id, title: "Renamed over HTTP" } }),
    });
    const response = await send(request, { db: testDb.db, user: alice });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: { json: { title: string } } } };
    expect(body.result.data.json.title).toBe("Renamed over HTTP");
  });

  it("answers bad input with 400, bad_request:api and the zod issue", async () => {
    const created = await createCaller({ db: testDb.db, user: alice }).session.create({ title: "keep me" });
    const response = await send(mutation("session.rename", { id: created.id, title: "  " }), {
      db: testDb.db,
      user: alice,
    });
    expect(response.status).toBe(400);
    const { body } = await readError(response);
    expect(body.error.json.data.code).toBe("BAD_REQUEST");
    expect(body.error.json.data.appCode).toBe("bad_request:api");
    expect(body.error.json.data.zodIssues).toContainEqual({ path: ["title"], message: "Title cannot be empty" });
    expect((await createCaller({ db: testDb.db, user: alice }).session.get({ id: created.id })).title).toBe("keep me");
  });

  it("answers another user's session with 404 not_found:session", async () => {
    const secret = await createCaller({ db: testDb.db, user: alice }).session.create({ title: "mine" });
    const response = await send(mutation("session.rename", { id: secret.id, title: "yours now" }), {
      db: testDb.db,
      user: bob,
    });
    expect(response.status).toBe(404);
    const { body } = await readError(response);
    expect(body.error.json.data.appCode).toBe("not_found:session");
    expect(body.error.json.message).toBe("That chat session does not exist or is not yours.");

    const get = await send(query("session.get", { id: secret.id }), { db: testDb.db, user: bob });
    expect(get.status).toBe(404);
    expect((await readError(get)).body.error.json.data.appCode).toBe("not_found:session");
  });

  it("answers a request without a signed-in user with 401 unauthorized:auth", async () => {
    const response = await send(query("session.list"), { db: testDb.db, user: null });
    expect(response.status).toBe(401);
    const { body } = await readError(response);
    expect(body.error.json.data.code).toBe("UNAUTHORIZED");
    expect(body.error.json.data.appCode).toBe("unauthorized:auth");
  });

  it("answers an internal failure with 500 and the generic message, logging the cause server-side", async () => {
    const cause = new Error("secret connection string postgres://u:p@h");
    const failingDb = {
      chatSession: { findMany: () => Promise.reject(cause) },
    } as unknown as Db;
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await send(query("session.list"), { db: failingDb, user: alice });
      expect(response.status).toBe(500);
      const { text, body } = await readError(response);
      expect(text).not.toContain("secret");
      expect(text).not.toContain("postgres://");
      expect(body.error.json.message).toBe(GENERIC_MESSAGE);
      expect(body.error.json.data.appCode).toBe("internal:api");
      expect(log).toHaveBeenCalledWith(expect.stringContaining("internal:api"), cause);
    } finally {
      log.mockRestore();
    }
  });
});
