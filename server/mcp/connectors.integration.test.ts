// Connectors against a real Postgres, through the `connectors` router (createCaller and the fetch
// adapter) and the data access behind it. What must hold: admin rows mirror the admin file without
// its secrets; a user sees the admin connectors and their own only, and cannot touch anybody else's;
// header values are sealed at rest and never come back out; stdio and private URLs are refused.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCallerFactory, createTRPCRouter } from "../api/trpc.ts";
import { connectorsRouter } from "../api/routers/connectors.ts";
import type { SessionUser } from "../auth/session.ts";
import { openWithKey } from "../crypto/secrets.ts";
import type { Db } from "../db/client.ts";
import { env } from "../env.ts";
import { AppError } from "../errors.ts";
import { createTestDatabase, createTestUser, type TestDatabase } from "../../e2e/support/testbeds/database.ts";
import type { AdminConnector } from "./admin-file.ts";
import { createUserConnector, updateUserConnector } from "./connectors.ts";
import { getConnectorConfig } from "./connector-config.ts";
import { syncAdminConnectors } from "./admin-connector-sync.ts";
import type { LookupAll } from "../core/url-guard.ts";

const KEY = Buffer.alloc(32, 7);
const TOKEN = "Bearer sk-live-connector-token-4711";
const PUBLIC_URL = "https://93.184.215.14/mcp"; // a public IP literal: no DNS in tests

const router = createTRPCRouter({ connectors: connectorsRouter });
const createCaller = createCallerFactory(router);

let testDb: TestDatabase;
let db: Db;
let alice: SessionUser;
let bob: SessionUser;

const adminFile: AdminConnector[] = [
  { name: "files", disabled: false, config: { kind: "stdio", command: "npx", args: ["fs"], env: { FS_TOKEN: "t0p" } } },
  {
    name: "zapier",
    disabled: false,
    config: {
      kind: "streamable-http",
      url: "https://mcp.zapier.example/api/s/SECRET-PATH/mcp",
      headers: { "X-Admin": "adm1n" },
    },
  },
  { name: "paused", disabled: true, config: { kind: "sse", url: "https://paused.example/sse", headers: {} } },
];

async function createSessionUser(name: string): Promise<SessionUser> {
  const user = await createTestUser(db, name);
  return { id: user.id, name: user.name, email: user.email, image: null };
}

const as = (user: SessionUser | null) => createCaller({ db, user });

/** Asserts a rejection is the tRPC error `trpcCode` carrying an AppError `appCode`; returns its message. */
async function expectTRPCError(promise: Promise<unknown>, trpcCode: string, appCode: string): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toMatchObject({ name: "TRPCError", code: trpcCode });
  const cause = (error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(AppError);
  expect((cause as AppError).code).toBe(appCode);
  return (error as Error).message;
}

async function rawSecrets(id: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ secrets: string | null }[]>`SELECT "secrets" FROM "Connector" WHERE "id" = ${id}`;
  return rows[0]!.secrets;
}

beforeAll(async () => {
  // The key is read lazily, so this applies to every seal in this file and keeps the data dir untouched.
  env.PATCHBAY_ENCRYPTION_KEY = KEY.toString("base64");
  env.MCP_ALLOW_PRIVATE_URLS = false;
  testDb = await createTestDatabase();
  db = testDb.db;
  alice = await createSessionUser("Alice");
  bob = await createSessionUser("Bob");
  await syncAdminConnectors(db, adminFile);
});

afterAll(async () => {
  await testDb?.drop();
});

describe("syncAdminConnectors", () => {
  it("stores enabled admin servers by name, transport and URL origin only", async () => {
    const rows = await db.connector.findMany({ where: { source: "admin" }, orderBy: { name: "asc" } });
    expect(
      rows.map(({ name, ownerId, transport, url, secrets }) => ({ name, ownerId, transport, url, secrets })),
    ).toEqual([
      { name: "files", ownerId: null, transport: "stdio", url: null, secrets: null },
      { name: "zapier", ownerId: null, transport: "streamable-http", url: "https://mcp.zapier.example", secrets: null },
    ]);
    const dump = JSON.stringify(await db.$queryRaw`SELECT * FROM "Connector" WHERE "source" = 'admin'`);
    for (const secret of ["npx", "t0p", "adm1n", "SECRET-PATH", "X-Admin"]) expect(dump).not.toContain(secret);
  });

  it("updates, adds and removes rows to match the file, idempotently and safely in parallel", async () => {
    const scratch = await createTestDatabase();
    try {
      const owner = await createTestUser(scratch.db, "Owner");
      await syncAdminConnectors(scratch.db, adminFile);
      const files = await scratch.db.connector.findFirstOrThrow({ where: { name: "files" } });
      const chat = await scratch.db.chatSession.create({ data: { ownerId: owner.id, title: "t" } });
      await scratch.db.sessionConnector.create({ data: { sessionId: chat.id, connectorId: files.id } });

      const next: AdminConnector[] = [
        { name: "zapier", disabled: false, config: { kind: "sse", url: "https://other.example/sse", headers: {} } },
        { name: "paused", disabled: false, config: { kind: "sse", url: "https://paused.example/sse", headers: {} } },
        { name: "files", disabled: true, config: { kind: "stdio", command: "npx", args: [], env: {} } },
      ];
      expect(await syncAdminConnectors(scratch.db, next)).toEqual({
        created: ["paused"],
        updated: ["zapier"],
        removed: ["files"],
      });
      expect(await scratch.db.sessionConnector.count({ where: { sessionId: chat.id } })).toBe(0);

      const results = await Promise.all([syncAdminConnectors(scratch.db, next), syncAdminConnectors(scratch.db, next)]);
      expect(results).toEqual([
        { created: [], updated: [], removed: [] },
        { created: [], updated: [], removed: [] },
      ]);
      const rows = await scratch.db.connector.findMany({ where: { source: "admin" }, orderBy: { name: "asc" } });
      expect(rows.map(({ name, transport, url }) => ({ name, transport, url }))).toEqual([
        { name: "paused", transport: "sse", url: "https://paused.example" },
        { name: "zapier", transport: "sse", url: "https://other.example" },
      ]);

      const fresh = await createTestDatabase();
      try {
        await Promise.all([syncAdminConnectors(fresh.db, adminFile), syncAdminConnectors(fresh.db, adminFile)]);
        expect(await fresh.db.connector.count()).toBe(2);
      } finally {
        await fresh.drop();
      }

      expect(await syncAdminConnectors(scratch.db, [])).toEqual({
        created: [],
        updated: [],
        removed: ["paused", "zapier"],
      });
      expect(await scratch.db.connector.count()).toBe(0);
    } finally {
      await scratch.drop();
    }
  });
});

describe("connectors router", () => {
  it("lists the admin connectors and the caller's own, never anybody else's", async () => {
    const mine = await as(alice).connectors.create({
      name: "alice-notes",
      transport: "streamable-http",
      url: PUBLIC_URL,
      headers: {},
    });
    const theirs = await as(bob).connectors.create({
      name: "bob-notes",
      transport: "sse",
      url: PUBLIC_URL,
      headers: {},
    });

    const list = await as(alice).connectors.list();
    expect(list.map(({ source, name }) => `${source}:${name}`)).toEqual([
      "admin:files",
      "admin:zapier",
      "user:alice-notes",
    ]);
    expect(list.map((connector) => connector.id)).not.toContain(theirs.id);
    expect(list[1]).toEqual({
      id: expect.any(String) as string,
      source: "admin",
      name: "zapier",
      transport: "streamable-http",
      url: "https://mcp.zapier.example",
      hasSecrets: false,
      headerNames: [],
      isReadOnly: true,
    });
    expect(list[2]).toEqual(mine);
    expect((await as(bob).connectors.list()).map((connector) => connector.name)).toEqual([
      "files",
      "zapier",
      "bob-notes",
    ]);
  });

  it("seals header values at rest and returns header names only", async () => {
    const created = await as(alice).connectors.create({
      name: "github",
      transport: "streamable-http",
      url: PUBLIC_URL,
      headers: { Authorization: TOKEN, "X-Team": "core-team-7" },
    });
    expect(created).toMatchObject({ source: "user", hasSecrets: true, isReadOnly: false, url: PUBLIC_URL });
    expect(created.headerNames).toEqual(["Authorization", "X-Team"]);

    const stored = await rawSecrets(created.id);
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain("sk-live");
    expect(stored).not.toContain("core-team-7");
    expect(stored).not.toContain("Authorization");
    expect(JSON.parse(openWithKey(KEY, stored!))).toEqual({
      headers: { Authorization: TOKEN, "X-Team": "core-team-7" },
    });

    const everything = JSON.stringify([created, await as(alice).connectors.list()]);
    expect(everything).not.toContain("sk-live");
    expect(everything).not.toContain("core-team-7");

    expect(await getConnectorConfig(db, created.id, adminFile)).toEqual({
      kind: "streamable-http",
      url: PUBLIC_URL,
      headers: { Authorization: TOKEN, "X-Team": "core-team-7" },
    });
  });

  it("updates headers: a value sets, null keeps the saved value, a left-out header is removed", async () => {
    const caller = as(alice);
    const created = await caller.connectors.create({
      name: "linear",
      transport: "streamable-http",
      url: PUBLIC_URL,
      headers: { Authorization: TOKEN, "X-Old": "old" },
    });
    const sealedBefore = await rawSecrets(created.id);

    const renamed = await caller.connectors.update({ id: created.id, name: "linear-2", transport: "sse" });
    expect(renamed).toMatchObject({ name: "linear-2", transport: "sse", headerNames: ["Authorization", "X-Old"] });
    expect(await rawSecrets(created.id)).toBe(sealedBefore);

    const updated = await caller.connectors.update({
      id: created.id,
      headers: { authorization: null, "X-New": "new" },
    });
    expect(updated.headerNames).toEqual(["authorization", "X-New"]);
    const config = await getConnectorConfig(db, created.id, adminFile);
    expect(config).toEqual({ kind: "sse", url: PUBLIC_URL, headers: { authorization: TOKEN, "X-New": "new" } });

    const message = await expectTRPCError(
      caller.connectors.update({ id: created.id, headers: { "X-Never-Saved": null } }),
      "BAD_REQUEST",
      "bad_request:api",
    );
    expect(message).toBe('Header "X-Never-Saved" has no saved value to keep; enter its value.');

    const cleared = await caller.connectors.update({ id: created.id, headers: {} });
    expect(cleared).toMatchObject({ hasSecrets: false, headerNames: [] });
    expect(await rawSecrets(created.id)).toBeNull();
  });

  it("keeps saved header values only while the URL stays on the same origin", async () => {
    const caller = as(alice);
    const created = await caller.connectors.create({
      name: "moving",
      transport: "streamable-http",
      url: PUBLIC_URL,
      headers: { Authorization: TOKEN },
    });
    const samePath = await caller.connectors.update({ id: created.id, url: "https://93.184.215.14/v2/mcp" });
    expect(samePath.url).toBe("https://93.184.215.14/v2/mcp");
    expect(samePath.headerNames).toEqual(["Authorization"]);

    for (const patch of [{}, { headers: { Authorization: null } }]) {
      const message = await expectTRPCError(
        caller.connectors.update({ id: created.id, url: "https://1.1.1.1/mcp", ...patch }),
        "BAD_REQUEST",
        "bad_request:api",
      );
      expect(message).toContain("The URL moved to another origin: enter the header values again");
    }
    expect((await getConnectorConfig(db, created.id, adminFile))?.kind).toBe("streamable-http");

    const moved = await caller.connectors.update({
      id: created.id,
      url: "https://1.1.1.1/mcp",
      headers: { Authorization: "Bearer new" },
    });
    expect(moved).toMatchObject({ url: "https://1.1.1.1/mcp", headerNames: ["Authorization"] });
  });

  it("hides another user's connector and leaves it untouched", async () => {
    const secret = await as(alice).connectors.create({
      name: "private",
      transport: "streamable-http",
      url: PUBLIC_URL,
      headers: { Authorization: TOKEN },
    });
    const before = await db.connector.findUniqueOrThrow({ where: { id: secret.id } });

    await expectTRPCError(
      as(bob).connectors.update({ id: secret.id, name: "mine-now" }),
      "NOT_FOUND",
      "not_found:connector",
    );
    await expectTRPCError(
      as(bob).connectors.update({ id: secret.id, url: "https://1.1.1.1/steal", headers: { Authorization: null } }),
      "NOT_FOUND",
      "not_found:connector",
    );
    await expectTRPCError(as(bob).connectors.delete({ id: secret.id }), "NOT_FOUND", "not_found:connector");
    await expectTRPCError(as(bob).connectors.delete({ id: "does-not-exist" }), "NOT_FOUND", "not_found:connector");

    expect(await db.connector.findUniqueOrThrow({ where: { id: secret.id } })).toEqual(before);
    expect(await as(alice).connectors.delete({ id: secret.id })).toEqual({ id: secret.id });
    expect(await db.connector.findUnique({ where: { id: secret.id } })).toBeNull();
    await expectTRPCError(as(alice).connectors.delete({ id: secret.id }), "NOT_FOUND", "not_found:connector");
  });

  it("keeps admin connectors read-only", async () => {
    const admin = (await as(alice).connectors.list()).find((connector) => connector.name === "zapier")!;
    const message = await expectTRPCError(
      as(alice).connectors.update({ id: admin.id, url: PUBLIC_URL }),
      "FORBIDDEN",
      "forbidden:api",
    );
    expect(message).toContain("Admin connectors are read-only");
    await expectTRPCError(as(alice).connectors.delete({ id: admin.id }), "FORBIDDEN", "forbidden:api");
    expect(await db.connector.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({
      url: "https://mcp.zapier.example",
    });
  });

  it("refuses stdio connectors from users", async () => {
    const message = await expectTRPCError(
      as(alice).connectors.create({ name: "shell", transport: "stdio", url: PUBLIC_URL, headers: {} }),
      "BAD_REQUEST",
      "bad_request:api",
    );
    expect(message).toBe("stdio connectors can only be declared by an admin (in MCP_SERVERS_FILE).");
    const own = await as(alice).connectors.create({ name: "to-stdio", transport: "sse", url: PUBLIC_URL, headers: {} });
    await expectTRPCError(
      as(alice).connectors.update({ id: own.id, transport: "stdio" }),
      "BAD_REQUEST",
      "bad_request:api",
    );
    expect(await db.connector.count({ where: { transport: "stdio", source: "user" } })).toBe(0);
  });

  it("refuses private URLs unless the admin allows them", async () => {
    for (const url of [
      "http://127.0.0.1:9000/mcp",
      "http://localhost:3000/mcp",
      "http://[::ffff:10.0.0.1]/mcp",
      "http://169.254.169.254/",
    ]) {
      const message = await expectTRPCError(
        as(alice).connectors.create({ name: "internal", transport: "streamable-http", url, headers: {} }),
        "BAD_REQUEST",
        "bad_request:api",
      );
      expect(message).toMatch(/resolves to a private address; an admin can allow it with MCP_ALLOW_PRIVATE_URLS/);
    }
    const own = await as(alice).connectors.create({
      name: "public-one",
      transport: "sse",
      url: PUBLIC_URL,
      headers: {},
    });
    await expectTRPCError(
      as(alice).connectors.update({ id: own.id, url: "http://10.1.2.3/" }),
      "BAD_REQUEST",
      "bad_request:api",
    );
    expect(await db.connector.count({ where: { name: "internal" } })).toBe(0);

    const allowed = await createUserConnector(
      db,
      alice.id,
      { name: "internal", transport: "streamable-http", url: "http://127.0.0.1:9000/mcp" },
      { allowPrivateUrls: true },
    );
    expect(allowed.url).toBe("http://127.0.0.1:9000/mcp");
  });

  it("checks every address a host name resolves to", async () => {
    const resolvesTo =
      (...addresses: string[]): LookupAll =>
      () =>
        Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
    const input = { name: "named-host", transport: "streamable-http" as const, url: "https://mcp.example.com/mcp" };
    await expect(
      createUserConnector(db, bob.id, input, { lookup: resolvesTo("93.184.215.14", "10.0.0.9") }),
    ).rejects.toThrow(/resolves to a private address/);
    const created = await createUserConnector(db, bob.id, input, { lookup: resolvesTo("93.184.215.14") });
    expect(created.url).toBe("https://mcp.example.com/mcp");
  });

  it("refuses credentials in the URL", async () => {
    const message = await expectTRPCError(
      as(alice).connectors.create({
        name: "userinfo",
        transport: "sse",
        url: "https://me:pw@93.184.215.14/",
        headers: {},
      }),
      "BAD_REQUEST",
      "bad_request:api",
    );
    expect(message).toContain("Put credentials in a header");
  });

  it("keeps names unique per user, not across users", async () => {
    await as(alice).connectors.create({ name: "shared-name", transport: "sse", url: PUBLIC_URL, headers: {} });
    const message = await expectTRPCError(
      as(alice).connectors.create({ name: "shared-name", transport: "sse", url: PUBLIC_URL, headers: {} }),
      "CONFLICT",
      "conflict:api",
    );
    expect(message).toBe('You already have a connector named "shared-name"; pick another name.');
    await as(bob).connectors.create({ name: "shared-name", transport: "sse", url: PUBLIC_URL, headers: {} });

    const other = await as(alice).connectors.create({
      name: "other-name",
      transport: "sse",
      url: PUBLIC_URL,
      headers: {},
    });
    await expectTRPCError(
      as(alice).connectors.update({ id: other.id, name: "shared-name" }),
      "CONFLICT",
      "conflict:api",
    );
  });

  it('refuses a name an admin connector uses, or "builtin", on create and on rename', async () => {
    const taken = await expectTRPCError(
      as(alice).connectors.create({ name: "Zapier", transport: "sse", url: PUBLIC_URL, headers: {} }),
      "CONFLICT",
      "conflict:api",
    );
    expect(taken).toBe(
      '"Zapier" is the name of a connector your administrator set up ("zapier"), so their tool names would clash; pick another name.',
    );
    // Refused by the procedure's input schema (zod) and by the data access behind it.
    await expect(
      as(alice).connectors.create({ name: "builtin", transport: "sse", url: PUBLIC_URL, headers: {} }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("is reserved for Patchbay") as string,
    });
    await expect(
      createUserConnector(db, alice.id, { name: "Builtin", transport: "sse", url: PUBLIC_URL }),
    ).rejects.toThrow('name: "builtin" is reserved for Patchbay\'s built-in tools');

    const mine = await as(alice).connectors.create({
      name: "my-files",
      transport: "sse",
      url: PUBLIC_URL,
      headers: {},
    });
    await expectTRPCError(as(alice).connectors.update({ id: mine.id, name: "files" }), "CONFLICT", "conflict:api");
    await expect(updateUserConnector(db, alice.id, mine.id, { name: "BUILTIN" })).rejects.toThrow(/reserved/);
    // A disabled admin server has no row: its name is free until the admin enables it.
    await as(alice).connectors.update({ id: mine.id, name: "paused" });
    expect((await as(alice).connectors.list()).find((connector) => connector.id === mine.id)?.name).toBe("paused");
  });

  it("refuses every procedure without a signed-in user", async () => {
    await expectTRPCError(as(null).connectors.list(), "UNAUTHORIZED", "unauthorized:auth");
    await expectTRPCError(
      as(null).connectors.create({ name: "x", transport: "sse", url: PUBLIC_URL, headers: {} }),
      "UNAUTHORIZED",
      "unauthorized:auth",
    );
    await expectTRPCError(as(null).connectors.delete({ id: "x" }), "UNAUTHORIZED", "unauthorized:auth");
  });
});

describe("getConnectorConfig", () => {
  it("takes admin configs from the in-memory admin list, and null for what is no longer offered", async () => {
    const rows = await db.connector.findMany({ where: { source: "admin" } });
    const byName = (name: string) => rows.find((row) => row.name === name)!.id;
    expect(await getConnectorConfig(db, byName("files"), adminFile)).toEqual(adminFile[0]!.config);
    expect(await getConnectorConfig(db, byName("zapier"), adminFile)).toEqual(adminFile[1]!.config);
    const disabledNow = adminFile.map((connector) => ({ ...connector, disabled: connector.name === "zapier" }));
    expect(await getConnectorConfig(db, byName("zapier"), disabledNow)).toBeNull();
    expect(await getConnectorConfig(db, byName("files"), [])).toBeNull();
    expect(await getConnectorConfig(db, "no-such-connector", adminFile)).toBeNull();
  });
});

describe("connectors router over HTTP", () => {
  function send(request: Request, user: SessionUser): Promise<Response> {
    return fetchRequestHandler({ endpoint: "/api/trpc", req: request, router, createContext: () => ({ db, user }) });
  }

  function mutation(procedure: string, input: unknown): Request {
    return new Request(`http://localhost/api/trpc/${procedure}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(superjson.serialize(input)),
    });
  }

  it("answers create and list without any header value in the response body", async () => {
    const created = await send(
      mutation("connectors.create", {
        name: "over-http",
        transport: "streamable-http",
        url: PUBLIC_URL,
        headers: { Authorization: TOKEN },
      }),
      alice,
    );
    expect(created.status).toBe(200);
    const createdText = await created.text();
    expect(createdText).toContain('"headerNames":["Authorization"]');
    expect(createdText).not.toContain("sk-live");

    const listed = await send(new Request("http://localhost/api/trpc/connectors.list"), alice);
    expect(listed.status).toBe(200);
    const listedText = await listed.text();
    expect(listedText).toContain("over-http");
    expect(listedText).not.toContain("sk-live");
    expect(listedText).not.toContain("SECRET-PATH");
    expect(listedText).not.toContain("adm1n");
  });

  it("answers a bad header with 400 and a zod issue naming it", async () => {
    const response = await send(
      mutation("connectors.create", {
        name: "bad",
        transport: "sse",
        url: PUBLIC_URL,
        headers: { "X-A": "a\r\nHost: evil" },
      }),
      alice,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { json: { data: { appCode: string; zodIssues: unknown[] } } } };
    expect(body.error.json.data.appCode).toBe("bad_request:api");
    expect(body.error.json.data.zodIssues).toContainEqual({
      path: ["headers", "X-A"],
      message: "must not contain line breaks",
    });
  });

  it("answers a reserved or duplicate header name with 400", async () => {
    for (const headers of [{ Host: "internal.example" }, { "x-key": "a", "X-Key": "b" }]) {
      const response = await send(
        mutation("connectors.create", { name: "bad", transport: "sse", url: PUBLIC_URL, headers }),
        alice,
      );
      expect(response.status).toBe(400);
    }
  });
});
