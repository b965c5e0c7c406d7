// The API lane of `npm start`'s server (server/api/http-lane.ts) against Next.js's own route
// handlers: the external app runs server/cli/serve.ts (the lane answers /api/trpc and the event
// streams), the LAN app a plain `next start` on the same database (the routes answer). The same
// requests must get the same status, words and API headers from both; what only the lane does (a
// body streamed without a length, a session due to be rolled forward) is checked on its own.
import type { Page } from "@playwright/test";
import pg from "pg";

import { E2E_DATABASE, EXTERNAL_APP_URL, LAN_APP_URL } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";

const API_HEADERS = ["content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy"];
const DAY_MS = 24 * 60 * 60 * 1000;

type Answer = { status: number; body: string; headers: Record<string, string> };

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(new URL(path, base), { redirect: "manual", ...init });
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream");
  // An open event stream is read up to its first frame (how it is cut into chunks may differ), then let go.
  const body = isStream ? (await firstChunk(response)).split("\n\n")[0]! + "\n\n" : await response.text();
  const headers: Record<string, string> = {};
  for (const name of [...API_HEADERS, "content-type", "cache-control", "x-accel-buffering"]) {
    headers[name] = response.headers.get(name) ?? "";
  }
  return { status: response.status, body, headers };
}

async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

async function sessionCookie(page: Page): Promise<string> {
  return (await page.context().cookies())
    .filter(({ name }) => name.includes("authjs.session-token"))
    .map(({ name, value }) => `${name}=${value}`)
    .join("; ");
}

test("npm start's API lane and Next.js's routes give the same answers", async ({ page, sessions }) => {
  const chatId = await sessions.create();
  const cookie = await sessionCookie(page);
  const json = { "content-type": "application/json" };
  const input = (value: unknown) => encodeURIComponent(JSON.stringify({ json: value }));
  const cases: { name: string; path: string; init?: RequestInit }[] = [
    { name: "signed out", path: "/api/trpc/session.list" },
    { name: "signed in", path: "/api/trpc/session.get?input=" + input({ id: chatId }), init: { headers: { cookie } } },
    { name: "unknown procedure", path: "/api/trpc/session.nothing", init: { headers: { cookie } } },
    { name: "bad input", path: "/api/trpc/session.get?input=" + input({ id: 7 }), init: { headers: { cookie } } },
    {
      name: "cross-site change",
      path: "/api/trpc/session.create",
      init: { method: "POST", headers: { ...json, cookie, origin: "http://evil.example" }, body: '{"json":{}}' },
    },
    {
      name: "a form post",
      path: "/api/trpc/session.create",
      init: { method: "POST", headers: { cookie, "sec-fetch-site": "same-origin" }, body: "a=b" },
    },
    {
      name: "a body over 1 MiB",
      path: "/api/trpc/session.create",
      init: {
        method: "POST",
        headers: { ...json, cookie, "sec-fetch-site": "same-origin" },
        body: "x".repeat(1_100_000),
      },
    },
    { name: "PUT", path: "/api/trpc/session.list", init: { method: "PUT", headers: { cookie } } },
    { name: "events signed out", path: `/api/chats/${chatId}/events` },
    { name: "events of an unknown chat", path: "/api/chats/no-such-chat/events", init: { headers: { cookie } } },
    { name: "events after a bad id", path: `/api/chats/${chatId}/events?after=abc`, init: { headers: { cookie } } },
    { name: "events, open", path: `/api/chats/${chatId}/events`, init: { headers: { cookie } } },
  ];
  for (const { name, path, init } of cases) {
    const [lane, route] = await Promise.all([ask(EXTERNAL_APP_URL, path, init), ask(LAN_APP_URL, path, init)]);
    expect(lane, `${name}: ${path}`).toEqual(route);
  }
  // And the answers are the ones meant (not the same mistake twice).
  const expected = [401, 200, 404, 400, 403, 403, 413, 405, 401, 404, 400, 200];
  const statuses = await Promise.all(cases.map(({ path, init }) => ask(EXTERNAL_APP_URL, path, init)));
  expect(statuses.map(({ status }) => status)).toEqual(expected);
  expect(statuses.at(-1)!.body).toBe(": open\n\n");
  expect(statuses.at(-1)!.headers["cache-control"]).toBe("no-store, no-transform");
  expect(statuses.at(-2)!.body).toContain("must be an event id");
});

test("a body streamed without a length is cut off at 1 MiB with 413 in words", async ({ page }) => {
  const cookie = await sessionCookie(page);
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 4 * 1024 * 1024) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const response = await fetch(`${EXTERNAL_APP_URL}/api/trpc/session.create`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, "sec-fetch-site": "same-origin" },
    body,
    duplex: "half",
  } as RequestInit);
  expect(response.status).toBe(413);
  expect(await response.json()).toEqual({
    code: "too_large:api",
    message: "The request is too large (1 MiB at most).",
  });
});

test("an API call on a session due to be extended extends it, and the user stays signed in", async ({ page }) => {
  const token = (await page.context().cookies()).find(({ name }) => name.includes("authjs.session-token"))!.value;
  const database = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  database.pathname = `/${E2E_DATABASE}`;
  const client = new pg.Client({ connectionString: database.toString() });
  await client.connect();
  try {
    // Auth.js extends a session once a day: one that expires in 28 days was last extended 2 days ago.
    const due = new Date(Date.now() + 28 * DAY_MS);
    await client.query(`UPDATE "Session" SET expires = $1 WHERE "sessionToken" = $2`, [due, token]);
    const listed = await page.request.get("/api/trpc/session.list");
    expect(listed.status()).toBe(200);
    const { rows } = await client.query<{ expires: Date }>(`SELECT expires FROM "Session" WHERE "sessionToken" = $1`, [
      token,
    ]);
    expect(rows[0]!.expires.getTime()).toBeGreaterThan(Date.now() + 29.9 * DAY_MS);
    // Extended, it is read by the lane again, once a day.
    expect((await page.request.get("/api/trpc/session.list")).status()).toBe(200);
  } finally {
    await client.end();
  }
});
