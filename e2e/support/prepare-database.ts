// Creates a fresh, empty database for the e2e app (dropping the previous run's). The app applies
// the migrations itself on start, as it does for every user.
import pg from "pg";

import { E2E_DATABASE } from "./config.ts";

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
await client.query(`DROP DATABASE IF EXISTS "${E2E_DATABASE}" WITH (FORCE)`);
await client.query(`CREATE DATABASE "${E2E_DATABASE}"`);
await client.end();
console.log(`e2e database ${E2E_DATABASE} is fresh`);
