// Start-up checks for `next start` (called from instrumentation.ts): a configuration error
// (server/env.ts) stops the process with its message and exit code 1, instead of leaving a server
// up that answers every request with a 500.
import { brandOf, hasBrand } from "./core/brand.ts";

export async function loadConfigOrExit(): Promise<void> {
  try {
    await import("./env.ts");
  } catch (error) {
    // env.ts failed to load, so its isEnvError is out of reach: the brand says it is one.
    console.error(hasBrand(error, brandOf("EnvError")) ? (error as Error).message : error);
    process.exit(1);
  }
}
