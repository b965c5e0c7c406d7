// The session endpoint's body is readable by any script on the page: it must carry no token or id.
import { describe, expect, it } from "vitest";

import { filterSessionResponse, toPublicSession, toSessionPayload } from "./public-session.ts";

const stored = {
  sessionToken: "token-canary",
  userId: "user-canary",
  expires: "2030-01-01T00:00:00.000Z",
  user: { id: "user-canary", name: "Ada", email: "ada@example.com", image: null, emailVerified: null },
};

describe("session shapes", () => {
  it("the callback payload keeps the user's fields and the expiry, not the stored row", () => {
    const payload = toSessionPayload(new Date(stored.expires), stored.user);
    expect(payload).toEqual({
      user: { id: "user-canary", name: "Ada", email: "ada@example.com", image: null },
      expires: stored.expires,
    });
    expect(JSON.stringify(payload)).not.toContain("token-canary");
  });

  it("the public body has no token and no id", () => {
    const body = toPublicSession(stored);
    expect(body).toEqual({ user: { name: "Ada", email: "ada@example.com", image: null }, expires: stored.expires });
    expect(JSON.stringify(body)).not.toMatch(/canary/);
    expect(toPublicSession(null)).toBeNull();
    expect(toPublicSession({})).toBeNull();
  });

  it("rewrites the session endpoint's response and leaves others alone", async () => {
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "x-kept": "1" } });
    const filtered = await filterSessionResponse(new Request("http://localhost/api/auth/session"), json(stored));
    expect(filtered.headers.get("x-kept")).toBe("1");
    const text = await filtered.text();
    expect(text).not.toMatch(/canary/);
    expect(JSON.parse(text)).toEqual({
      user: { name: "Ada", email: "ada@example.com", image: null },
      expires: stored.expires,
    });
    const providers = await filterSessionResponse(new Request("http://localhost/api/auth/providers"), json(stored));
    expect(await providers.text()).toContain("token-canary");
  });
});
