// Seeds a year of a team's chats in a scratch database, in SQL (generate_series), as the session
// engine stores them: 20 users, 15,625 chats, 125,000 ended turns with 3 requests each, and 250,000
// tool messages of 4 tool-result parts = 1,000,000 tool calls, with a mix of outcomes and durations.
// As in a team, each user works with their own few tools and models: 3 of the 10 connectors (5 tools
// each) and 2 of the 8 models; across the team every tool and model is used every day. The metrics triggers are off while it seeds
// (session_replication_role = replica); bench/metrics.ts then rebuilds the roll-ups in one go.
import type { SqlPool } from "../server/db/client.ts";

export const SEED = { users: 20, chats: 15_625, turnsPerChat: 8, roundsPerTurn: 2, callsPerRound: 4 } as const;

const turns = SEED.chats * SEED.turnsPerChat;
const messages = turns * SEED.roundsPerTurn;

const statements = [
  `INSERT INTO "User" (id, name, email, "updatedAt")
     SELECT 'u' || g, 'User ' || g, 'user' || g || '@bench.test', now() FROM generate_series(0, ${SEED.users - 1}) g`,
  // 15,625 chats over 365 days (about 43 a day), spread over the users, each on one of its owner's 2 models.
  `INSERT INTO "ChatSession" (id, "ownerId", title, "createdAt", "updatedAt")
     SELECT 'c' || g, 'u' || ((g / 365) % ${SEED.users}), 'Chat ' || g, now() - (g % 365) * interval '1 day',
       now() - (g % 365) * interval '1 day'
     FROM generate_series(0, ${SEED.chats - 1}) g`,
  `INSERT INTO "Turn" (id, "sessionId", "userMessageId", "historySeq", status, provider, model, "stepCount",
       "inputTokens", "outputTokens", error, "startedAt", "endedAt")
     SELECT 't' || g, 'c' || (g / ${SEED.turnsPerChat}), 'x', 0,
       (CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'completed' END)::"TurnStatus",
       (ARRAY['anthropic', 'openai', 'google', 'openai-compatible'])[model.index % 4 + 1],
       'model-' || model.index, 3, 1000 + g % 5000, 50 + g % 700,
       CASE WHEN g % 40 = 0 THEN '{"code":"step_limit","message":"limit"}'::jsonb END,
       now() - ((g / ${SEED.turnsPerChat}) % 365) * interval '1 day',
       now() - ((g / ${SEED.turnsPerChat}) % 365) * interval '1 day'
     FROM generate_series(0, ${turns - 1}) g,
     LATERAL (SELECT ((g / ${SEED.turnsPerChat} / 365) % ${SEED.users} + 4 * ((g / ${SEED.turnsPerChat}) % 2)) % 8 AS index) model`,
  `INSERT INTO "TurnRequest" (id, "turnId", index, "toolsRevision", "toolNames")
     SELECT 'r' || g || '_' || i, 't' || g, i, 0, '[]'::jsonb FROM generate_series(0, ${turns - 1}) g, generate_series(0, 2) i`,
  // Tool messages: message k is round k % 2 of turn k / 2; seq is unique per chat.
  `INSERT INTO "Message" (id, "sessionId", "turnId", seq, role, parts, "createdAt", "updatedAt")
     SELECT 'm' || k, 'c' || (k / ${SEED.roundsPerTurn * SEED.turnsPerChat}), 't' || (k / ${SEED.roundsPerTurn}), k,
       'tool', parts.value, now() - ((k / ${SEED.roundsPerTurn * SEED.turnsPerChat}) % 365) * interval '1 day', now()
     FROM generate_series(0, ${messages - 1}) k,
     LATERAL (SELECT (k / ${SEED.roundsPerTurn * SEED.turnsPerChat} / 365) % ${SEED.users} AS index) owner,
     LATERAL (
       SELECT jsonb_agg(jsonb_build_object(
         'type', 'tool-result', 'callId', 'c' || i, 'name', 'conn' || ((owner.index + 3 * ((k + i) % 3)) % 10) || '.tool' || ((k * 7 + i) % 5),
         'isError', outcome IS NOT NULL,
         'output', CASE WHEN outcome IS NULL THEN to_jsonb('done'::text)
                   ELSE jsonb_build_object('error', jsonb_build_object('code', outcome, 'message', 'x')) END,
         'durationMs', ((k * 31 + i * 17) % 4000))) AS value
       FROM generate_series(0, ${SEED.callsPerRound - 1}) i,
       LATERAL (SELECT (ARRAY['tool_error', 'invalid_arguments', 'timeout', 'denied', 'cancelled', 'failed'])
                  [(k + i) % 6 + 1] AS code) codes,
       LATERAL (SELECT CASE WHEN (k * 13 + i) % 10 = 0 THEN codes.code END AS outcome) outcomes
     ) parts`,
];

export async function seedYear(pool: SqlPool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SET session_replication_role = replica");
    for (const statement of statements) await client.query(statement);
    await client.query("SET session_replication_role = DEFAULT");
    await client.query("ANALYZE");
  } finally {
    client.release();
  }
}
