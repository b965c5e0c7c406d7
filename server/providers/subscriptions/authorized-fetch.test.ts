// The authorized fetch refreshes once on a 401 and retries with the new token; a second 401 goes back
// to the SDK (no loop), and the response transform only applies to successful answers.
import { describe, expect, it } from "vitest";

import { createAuthorizedFetch, type TokenSource } from "./authorized-fetch.ts";

function tokenSource(): TokenSource & { rejected: string[] } {
  let current = { accessToken: "at-1" };
  const rejected: string[] = [];
  return {
    rejected,
    current: () => Promise.resolve(current),
    afterRejection: (token) => {
      rejected.push(token);
      current = { accessToken: `at-${rejected.length + 1}` };
      return Promise.resolve(current);
    },
  };
}

const bearerShaper = (url: string, init: RequestInit, tokens: { accessToken: string }) => ({
  url,
  init: { ...init, headers: { authorization: `Bearer ${tokens.accessToken}` } },
  transformResponse: async (response: Response) => new Response(`shaped:${await response.text()}`),
});

describe("createAuthorizedFetch", () => {
  it("refreshes once after a 401 and retries with the new token", async () => {
    const seen: string[] = [];
    const source = tokenSource();
    const fetch = createAuthorizedFetch(source, bearerShaper, (_url, init) => {
      const auth = (init?.headers as Record<string, string>).authorization!;
      seen.push(auth);
      return Promise.resolve(
        new Response(auth === "Bearer at-1" ? "expired" : "ok", { status: auth === "Bearer at-1" ? 401 : 200 }),
      );
    });
    const response = await fetch("https://x.test/v1", { method: "POST", body: "{}" });
    expect(await response.text()).toBe("shaped:ok");
    expect(seen).toEqual(["Bearer at-1", "Bearer at-2"]);
    expect(source.rejected).toEqual(["at-1"]);
  });

  it("gives a second 401 back without another refresh", async () => {
    const source = tokenSource();
    let calls = 0;
    const fetch = createAuthorizedFetch(source, bearerShaper, () => {
      calls++;
      return Promise.resolve(new Response("nope", { status: 401 }));
    });
    const response = await fetch("https://x.test/v1", { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("nope");
    expect(calls).toBe(2);
    expect(source.rejected).toEqual(["at-1"]);
  });
});
