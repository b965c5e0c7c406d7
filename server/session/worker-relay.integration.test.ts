// The event relay between `npm start`'s worker processes on a real node:cluster (two workers and
// the primary's relay, e2e/support/testbeds/relay-cluster.ts): a worker following a chat gets the
// batches another worker publishes, in order, with their previous ids and Dates, and nothing of a
// chat it does not follow; a batch that cannot be serialised is dropped without stopping either
// worker; once it stops following, nothing more is sent to it.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

import { FollowerBook } from "../cli/worker-relay-primary.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

type Report = {
  received: { previousId: string | null; events: { id: string; data: { text: string } }[]; isEveryDate: boolean }[];
  relayMessages: number;
};

describe("worker relay", () => {
  it("relays a followed chat's published batches to the following worker only while it follows", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", path.join(root, "e2e/support/testbeds/relay-cluster.ts")],
      { cwd: root, timeout: 30_000 },
    );
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as Report;
    expect(
      report.received.map(({ previousId, events }) => ({ previousId, ids: events.map((event) => event.id) })),
    ).toEqual([
      { previousId: "0", ids: ["1", "2"] },
      { previousId: "2", ids: ["4"] },
    ]);
    expect(report.received.flatMap(({ events }) => events.map((event) => event.data.text)).join("")).toBe(
      "Hello, world",
    );
    expect(report.received.every((batch) => batch.isEveryDate)).toBe(true);
    expect(report.relayMessages).toBe(0);
  });

  it("keeps which workers follow which chat, and forgets a worker that exits", () => {
    const book = new FollowerBook();
    expect(book.set("a", 1, true)).toBe(true);
    expect(book.set("a", 1, true)).toBe(false);
    expect(book.set("a", 2, true)).toBe(true);
    expect(book.set("b", 2, true)).toBe(true);
    expect(book.of("a")).toEqual([1, 2]);
    expect(book.drop(2).sort()).toEqual(["a", "b"]);
    expect(book.of("a")).toEqual([1]);
    expect(book.of("b")).toEqual([]);
    expect(book.set("a", 1, false)).toBe(true);
    expect(book.of("a")).toEqual([]);
    expect(book.set("a", 1, false)).toBe(false);
  });
});
