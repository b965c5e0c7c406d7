// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database) and
// exits. Patchbay also does this by itself on start; this is for deploy pipelines and debugging.
import { closeDb, getDatabaseUrl } from "../db/client.ts";

const url = await getDatabaseUrl();
console.log(`Migrations are up to date on ${new URL(url).host}${new URL(url).pathname}.`);
await closeDb();
