// Runs the fake provider for the benches in its own process (see child-fake.ts), so its pacing (a
// timer per SSE event for every stream) does not compete with Patchbay for this process's event
// loop, as a real provider would not. `node --import tsx bench/fake-provider-process.ts <chunks> <delayMs>`;
// prints one JSON line with the base URLs when it listens, and stops on SIGTERM or when its stdin
// closes (the bench process ended, however it ended).
import { startFakeProvider } from "../e2e/support/fake-provider/server.ts";
import { slowReply } from "./slow-reply.ts";

const [chunks, delayMs] = process.argv.slice(2, 4).map(Number);
if (!chunks || delayMs === undefined || Number.isNaN(delayMs)) {
  console.error("usage: node --import tsx bench/fake-provider-process.ts <chunks> <delayMs>");
  process.exit(2);
}

const provider = await startFakeProvider({ defaultReply: slowReply(chunks, delayMs) });
console.log(JSON.stringify({ baseUrls: provider.baseUrls }));

const stop = () => void provider.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.stdin.on("close", stop); // the bench process is gone
process.stdin.resume();
