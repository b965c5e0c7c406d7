// Code Assist onboarding against a scripted local server: a user with a tier keeps its project; the
// free tier is onboarded without a project; a paid tier needs GOOGLE_CLOUD_PROJECT and sends it; the
// operation is polled until done; an ineligible account is refused.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { setupCodeAssist } from "./code-assist-onboarding.ts";

type Call = { method: string; path: string; body: Record<string, unknown> };
let server: Server;
let base: string;
let calls: Call[] = [];
let load: Record<string, unknown> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      calls.push({ method: req.method ?? "", path, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} });
      const polls = calls.filter((call) => call.method === "GET").length;
      const answer = path.endsWith(":loadCodeAssist")
        ? load
        : path.endsWith(":onboardUser")
          ? { name: "operations/op-1", done: false }
          : polls < 2
            ? { name: "operations/op-1", done: false }
            : { name: "operations/op-1", done: true, response: { cloudaicompanionProject: { id: "proj-new" } } };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (project?: string) => ({ CODE_ASSIST_BASE_URL: base, GOOGLE_CLOUD_PROJECT: project });
const fast = { pollIntervalMs: 1 };

function reset(answer: Record<string, unknown>) {
  calls = [];
  load = answer;
}

describe("setupCodeAssist", () => {
  it("keeps the project of a user who already has a tier", async () => {
    reset({ currentTier: { id: "standard-tier", name: "Standard" }, cloudaicompanionProject: "proj-old" });
    expect(await setupCodeAssist(config(), "at", fast)).toEqual({
      project: "proj-old",
      tier: "standard-tier",
      tierName: "Standard",
    });
    expect(calls.map((call) => call.path)).toEqual(["/v1internal:loadCodeAssist"]);
  });

  it("onboards the free tier without a project and polls the operation until done", async () => {
    reset({ allowedTiers: [{ id: "legacy-tier" }, { id: "free-tier", isDefault: true }] });
    expect(await setupCodeAssist(config("ignored-for-free"), "at", fast)).toMatchObject({
      project: "proj-new",
      tier: "free-tier",
    });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      "POST /v1internal:loadCodeAssist",
      "POST /v1internal:onboardUser",
      "GET /v1internal/operations/op-1",
      "GET /v1internal/operations/op-1",
    ]);
    expect(calls[1]!.body).not.toHaveProperty("cloudaicompanionProject");
    expect(calls[1]!.body).toMatchObject({ tierId: "free-tier", metadata: { pluginType: "GEMINI" } });
  });

  it("needs a Cloud project for a paid tier, and sends it", async () => {
    reset({ allowedTiers: [{ id: "standard-tier", isDefault: true }] });
    await expect(setupCodeAssist(config(), "at", fast)).rejects.toThrow(/GOOGLE_CLOUD_PROJECT/);
    reset({ allowedTiers: [{ id: "standard-tier", isDefault: true }] });
    await setupCodeAssist(config("my-proj"), "at", fast);
    expect(calls[1]!.body).toMatchObject({ tierId: "standard-tier", cloudaicompanionProject: "my-proj" });
  });

  it("refuses an ineligible account", async () => {
    reset({ ineligibleTiers: [{ reasonCode: "INELIGIBLE_ACCOUNT" }] });
    await expect(setupCodeAssist(config(), "at", fast)).rejects.toThrow(/not eligible/);
  });
});
