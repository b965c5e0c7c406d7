// A second app instance for multi-process tests: `tsx e2e/support/testbeds/turn-process.ts <json>` with
// { databaseUrl, baseUrls, userId, sessionId, text, provider, model } starts one turn in its own
// SessionManager (its own instance id, LISTEN connection and lease), prints {"turnId": …} on
// stdout, and keeps running until it is killed — or SIGKILLed mid-stream to simulate a crash.
import { createDbClient } from "../../../server/db/client.ts";
import type { ProviderId } from "../../../server/core/canonical.ts";
import { startListening } from "../../../server/db/notifier.ts";
import { createManager, type FakeProviderId } from "./engine.ts";

type Args = {
  databaseUrl: string;
  baseUrls: Record<FakeProviderId, string>;
  userId: string;
  sessionId: string;
  text: string;
  provider: ProviderId;
  model: string;
};

const args = JSON.parse(process.argv[2] ?? "{}") as Args;
const db = createDbClient(args.databaseUrl);
await startListening(args.databaseUrl);
const manager = createManager(db, { baseUrls: args.baseUrls });
manager.start();
const { turnId } = await manager.startTurn(args.userId, args.sessionId, args.text, {
  provider: args.provider,
  model: args.model,
});
process.stdout.write(`${JSON.stringify({ turnId, instanceId: manager.instanceId })}\n`);
process.on("SIGTERM", () => void manager.stop().then(() => process.exit(0)));
setInterval(() => undefined, 60_000);
