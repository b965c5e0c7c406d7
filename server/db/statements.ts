// Named statements for the raw SQL on the hot path (a turn's claim, the streamed deltas, the signed-in
// user's lookup, the notifications). A named statement is parsed and planned once per connection;
// after that Postgres only binds and executes it: for the turn's claim that is about 0.7 ms of
// parsing and 1 ms of planning saved per send on the path to the first token, and under load the
// same CPU saved on Postgres per tick of streamed deltas.
// Contracts:
//  - a statement's text is fixed (no values spliced in), and one name is one text: `statement()`
//    throws at load time when a name is given two texts;
//  - the statements go unnamed (parsed each time, as plain queries are) on a pool marked by
//    `runUnnamed`, which createDbClient (client.ts) does for the embedded Postgres, whose socket
//    server puts every connection on one backend (a name prepared on one connection would clash on
//    the next), and for `namedStatements: false`: a pooler in transaction mode that cannot carry
//    prepared statements (DATABASE_PREPARED_STATEMENTS=false; PgBouncer 1.21+ with
//    max_prepared_statements can).
import type pg from "pg";

export type Statement = { readonly name: string; readonly text: string };

const textsByName = new Map<string, string>();

/** Declares the hot-path statement `name` (module level, once). */
export function statement(name: string, text: string): Statement {
  const known = textsByName.get(name);
  if (known !== undefined && known !== text) throw new Error(`Statement "${name}" was declared with two texts.`);
  textsByName.set(name, text);
  return { name: `patchbay_${name}`, text };
}

/**
 * Marks a pool, and each connection it opens, whose statements go unnamed. A mark on the object
 * itself, under a registered symbol: Next.js may load this module more than once in a process, and
 * every copy must read the mark another copy set.
 */
const UNNAMED = Symbol.for("patchbay.unnamedStatements");
type Markable = { [UNNAMED]?: true };

/** Makes `pool`'s connections run statements unnamed (see the top of this file). */
export function runUnnamed(pool: pg.Pool): void {
  (pool as Markable)[UNNAMED] = true;
  pool.on("connect", (client) => ((client as Markable)[UNNAMED] = true));
}

/**
 * A new connection's set-up on a pool whose statements are named (the pool's `onConnect`, awaited
 * before the connection's first query): keep a prepared statement's first plan
 * (`plan_cache_mode = force_generic_plan`). Postgres plans a prepared statement afresh on each of
 * its first five runs on a connection before it may keep a generic plan, and the pool closes idle
 * connections, so on a quiet server nearly every send paid the planning of its large statements
 * again. Measured in Postgres's log over 23 sends: the claim's bind (its planning) 0.86 → 0.30 ms,
 * a model request's start 0.68 → 0.15 ms, the same execution times. Every statement on these
 * connections (Prisma's too) finds its rows by key, which a generic plan does as well as a custom
 * one. A server that refuses the setting (before Postgres 12) keeps planning as before.
 */
export async function keepFirstPlans(connection: pg.ClientBase): Promise<void> {
  await connection.query("SET plan_cache_mode = force_generic_plan").catch(() => undefined);
}

/** Runs `sql` on a pool or one of its connections, named unless that pool says otherwise. */
export function runStatement<Row extends pg.QueryResultRow>(
  on: pg.Pool | pg.PoolClient,
  sql: Statement,
  values: unknown[],
): Promise<pg.QueryResult<Row>> {
  const config = (on as Markable)[UNNAMED] ? { text: sql.text, values } : { name: sql.name, text: sql.text, values };
  return on.query<Row>(config);
}
