// The CSRF guard of state-changing route handlers: what a browser on another site (or another port
// of localhost) can send is refused with a 403 in words; the app's own fetches pass.
import { describe, expect, it } from "vitest";

import { crossSiteRefusal } from "./same-origin.ts";

const url = "http://localhost:3000/api/trpc/session.create";
const post = (headers: Record<string, string>) => new Request(url, { method: "POST", headers, body: "{}" });
const json = { "content-type": "application/json" };

describe("crossSiteRefusal", () => {
  it("lets the app's own JSON posts through (Sec-Fetch-Site or Origin)", () => {
    expect(crossSiteRefusal(post({ ...json, "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(crossSiteRefusal(post({ ...json, origin: "http://localhost:3000" }))).toBeNull();
    expect(
      crossSiteRefusal(post({ "content-type": "application/json; charset=utf-8", origin: "http://localhost:3000" })),
    ).toBeNull();
  });

  it("accepts the configured public origin (behind a proxy)", () => {
    const behindProxy = post({ ...json, origin: "https://chat.example.com" });
    expect(crossSiteRefusal(behindProxy)).toMatchObject({ code: "forbidden:api" });
    expect(crossSiteRefusal(behindProxy, "https://chat.example.com/")).toBeNull();
  });

  it.each([
    ["another localhost port", { ...json, origin: "http://localhost:4000", "sec-fetch-site": "same-site" }],
    ["another port, Origin only", { ...json, origin: "http://localhost:4000" }],
    ["another site", { ...json, origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ["an opaque origin (sandboxed frame)", { ...json, origin: "null" }],
    ["no Origin and no Sec-Fetch-Site", json],
    ["Sec-Fetch-Site none (typed into the address bar)", { ...json, "sec-fetch-site": "none" }],
  ])("refuses %s with a 403 in words", (_name, headers) => {
    const refusal = crossSiteRefusal(post(headers));
    expect(refusal?.status).toBe(403);
    expect(refusal?.message).toBe(
      "This request came from another site and was refused: Patchbay only accepts changes from its own pages.",
    );
  });

  it.each(["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", ""])(
    "refuses a same-origin post sent as %j",
    (contentType) => {
      const refusal = crossSiteRefusal(post({ "content-type": contentType, "sec-fetch-site": "same-origin" }));
      expect(refusal?.status).toBe(403);
      expect(refusal?.message).toBe("Requests that change something must be sent as application/json.");
    },
  );

  it("lets safe methods through", () => {
    expect(crossSiteRefusal(new Request(url, { headers: { origin: "https://evil.example" } }))).toBeNull();
    expect(crossSiteRefusal(new Request(url, { method: "HEAD" }))).toBeNull();
  });
});
