// The API's session read against the real Postgres and the sessions Auth.js's own Prisma adapter
// writes: it answers the user of a live session, nothing for a deleted (signed-out), expired or
// unknown one, hands a session due to be rolled forward to Auth.js, and reports an unreachable
// database as `unavailable:database`, not as signed out.
import { randomBytes } from "node:crypto";

import { PrismaAdapter } from "@auth/prisma-adapter";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createTestDatabase, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import { isAppError } from "../errors.ts";
import { readSessionUser, sessionTokenOf } from "./request-user.ts";
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from "./session-ages.ts";

let database: TestDatabase;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

async function userWithSession(expires: Date) {
  const adapter = PrismaAdapter(database.db);
  const user = await adapter.createUser!({
    id: "",
    name: "Request User",
    email: `request-${randomBytes(4).toString("hex")}@example.test`,
    emailVerified: null,
    image: "https://example.test/me.png",
  });
  const sessionToken = randomBytes(24).toString("hex");
  await adapter.createSession!({ sessionToken, userId: user.id, expires });
  return { adapter, user, sessionToken };
}

const notExpected = () => Promise.reject(new Error("the session was not due to be rolled forward"));

describe("readSessionUser", () => {
  it("answers a live session's user, and nothing once Auth.js deleted it (sign-out)", async () => {
    const { adapter, user, sessionToken } = await userWithSession(
      new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
    );
    await expect(readSessionUser(database.pool, sessionToken, notExpected)).resolves.toEqual({
      id: user.id,
      name: "Request User",
      email: user.email,
      image: "https://example.test/me.png",
    });
    await adapter.deleteSession!(sessionToken);
    await expect(readSessionUser(database.pool, sessionToken, notExpected)).resolves.toBeNull();
  });

  it("answers nothing for an expired or unknown session", async () => {
    const { sessionToken } = await userWithSession(new Date(Date.now() - 1_000));
    await expect(readSessionUser(database.pool, sessionToken, notExpected)).resolves.toBeNull();
    await expect(readSessionUser(database.pool, "no-such-token", notExpected)).resolves.toBeNull();
  });

  it("hands a session Auth.js would extend now to Auth.js, and no other", async () => {
    const updatedLongAgo = Date.now() - SESSION_UPDATE_AGE_SECONDS * 1000 - 60_000;
    const due = await userWithSession(new Date(updatedLongAgo + SESSION_MAX_AGE_SECONDS * 1000));
    const rollForward = vi.fn(() => Promise.resolve({ id: due.user.id, name: null, email: null, image: null }));
    await expect(readSessionUser(database.pool, due.sessionToken, rollForward)).resolves.toMatchObject({
      id: due.user.id,
    });
    expect(rollForward).toHaveBeenCalledTimes(1);

    const fresh = await userWithSession(new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000 - DAY_MS / 2));
    await readSessionUser(database.pool, fresh.sessionToken, rollForward);
    expect(rollForward).toHaveBeenCalledTimes(1);
  });

  it("reports an unreachable database as unavailable, never as signed out", async () => {
    const closed = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      connectionTimeoutMillis: 500,
    });
    try {
      const error: unknown = await readSessionUser(closed, "any-token", notExpected).catch((caught: unknown) => caught);
      expect(isAppError(error) && error.code).toBe("unavailable:database");
    } finally {
      await closed.end();
    }
  });
});

describe("sessionTokenOf", () => {
  it("finds Auth.js's session cookie, plain or __Secure-, among others", () => {
    expect(sessionTokenOf("a=1; authjs.session-token=abc; b=2")).toBe("abc");
    expect(sessionTokenOf("__Secure-authjs.session-token=x%2By")).toBe("x+y");
    expect(sessionTokenOf("authjs.csrf-token=zzz; other=1")).toBeNull();
    expect(sessionTokenOf("authjs.session-token=")).toBeNull();
    expect(sessionTokenOf(null)).toBeNull();
  });
});
