// A node:cluster of two workers for server/session/worker-relay.integration.test.ts, run with tsx.
// The primary runs Patchbay's relay (server/cli/worker-relay-primary.ts) as `npm start` does; the
// follower worker follows a chat with event-log.ts's onEventsAppended (what an open event stream
// uses), the publisher worker publishes events of it with publishHere (what a streaming turn does).
// The primary steps them through: follow, publish (a batch that cannot be serialised, then three
// more), unfollow, publish again; then it prints one JSON
// line: the batches that reached the follower's subscriber while it followed (each with whether its
// createdAt arrived as Dates), and how many relay messages reached the follower's process after it
// stopped following.
import cluster from "node:cluster";

import { relayBetweenWorkers } from "../../../server/cli/worker-relay-primary.ts";
import { onEventsAppended, publishHere, type AppendedEvents } from "../../../server/session/event-log.ts";
import type { SessionEventDto } from "../../../server/session/event-types.ts";

export const FOLLOWED = "chat-followed";
export const NOT_FOLLOWED = "chat-other";

type Step = { step: string; [key: string]: unknown };

function event(sessionId: string, id: number, text: string): SessionEventDto {
  return { id: String(id), sessionId, turnId: "turn-1", type: "text.delta", data: { text }, createdAt: new Date(id) };
}

async function runPrimary(): Promise<void> {
  relayBetweenWorkers(cluster);
  cluster.setupPrimary({ execArgv: process.execArgv });
  let isDone = false;
  cluster.on("exit", (worker, code, signal) => {
    if (isDone) return;
    console.error(`worker ${worker.id} exited early (${signal ?? code})`);
    process.exit(1);
  });
  const follower = cluster.fork({ RELAY_ROLE: "follower" });
  const publisher = cluster.fork({ RELAY_ROLE: "publisher" });
  const next = (worker: typeof follower, step: string) =>
    new Promise<Step>((resolve) => {
      const onMessage = (message: Step) => {
        if (message?.step !== step) return;
        worker.off("message", onMessage);
        resolve(message);
      };
      worker.on("message", onMessage);
    });
  await Promise.all([next(follower, "up"), next(publisher, "up")]);
  follower.send({ step: "follow" });
  await next(follower, "following");
  publisher.send({ step: "publish", from: 1 });
  await next(publisher, "published");
  // The relay is asynchronous: the follower reports once the last batch (id 4) arrived, or after 5 s.
  follower.send({ step: "report", lastId: "4" });
  const report = await next(follower, "report");
  follower.send({ step: "unfollow" });
  await next(follower, "unfollowed");
  publisher.send({ step: "publish", from: 11 });
  await next(publisher, "published");
  await new Promise((resolve) => setTimeout(resolve, 300)); // what would have been relayed arrives by now
  follower.send({ step: "count" });
  const count = await next(follower, "count");
  console.log(JSON.stringify({ received: report.received, relayMessages: count.relayMessages }));
  isDone = true;
  for (const worker of [follower, publisher]) worker.kill();
}

function runFollower(): void {
  const received: AppendedEvents[] = [];
  let relayMessages = 0;
  let stop: (() => void) | null = null;
  process.on("message", (message: Step & { patchbay?: string }) => {
    if (message.patchbay === "events") relayMessages++; // one per turn of the publisher's event loop
    if (message.step === "follow") {
      stop = onEventsAppended(FOLLOWED, (appended) => received.push(appended));
      process.send!({ step: "following" });
    } else if (message.step === "report") {
      const started = Date.now();
      const check = () => {
        if (received.at(-1)?.events.at(-1)?.id === message.lastId || Date.now() - started > 5_000)
          process.send!({
            step: "report",
            received: received.map(({ previousId, events }) => ({
              previousId,
              events: events.map((event) => ({ ...event, createdAt: event.createdAt.toISOString() })),
              isEveryDate: events.every((event) => event.createdAt instanceof Date),
            })),
          });
        else setTimeout(check, 5);
      };
      check();
    } else if (message.step === "unfollow") {
      stop?.();
      relayMessages = 0;
      process.send!({ step: "unfollowed" });
    } else if (message.step === "count") {
      process.send!({ step: "count", relayMessages });
    }
  });
  process.send!({ step: "up" });
}

function runPublisher(): void {
  process.on("message", (message: Step) => {
    if (message.step !== "publish") return;
    const from = message.from as number;
    // A batch that cannot travel as JSON is dropped (with a warning), and the worker goes on.
    publishHere(FOLLOWED, [{ ...event(FOLLOWED, from - 1, ""), data: { count: BigInt(1) } }]);
    setImmediate(() => {
      publishHere(FOLLOWED, [event(FOLLOWED, from, "Hello"), event(FOLLOWED, from + 1, ", ")]);
      publishHere(NOT_FOLLOWED, [event(NOT_FOLLOWED, from + 2, "elsewhere")]);
      publishHere(FOLLOWED, [event(FOLLOWED, from + 3, "world")]);
      process.send!({ step: "published" });
    });
  });
  process.send!({ step: "up" });
}

if (cluster.isPrimary) await runPrimary();
else if (process.env.RELAY_ROLE === "follower") runFollower();
else runPublisher();
