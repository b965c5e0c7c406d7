-- Tool-call and turn figures for the metrics page, the CSV export and /metrics (server/metrics/).
-- Two roll-ups, kept current by triggers on the stored rows, with one row per day and one per month
-- (grain), so a year of calls answers from month rows plus the days of the months at its ends:
-- - ToolCallDaily, from each tool messages parts (one tool-result part = one call, its outcome is
--   the error code of the result, `ok` when it is not an error, a call that succeeds right after the
--   same tool had invalid_arguments in the previous round of the turn counts as a correction),
-- - TurnDaily, from each turn when it ends (requests are its TurnRequest rows, step_limit is the
--   error code of a turn that hit the step limit).
-- Latency is a histogram over 40 buckets: bucket 0 is [0, 5] ms, bucket i is (5*1.3^(i-1), 5*1.3^i]
-- ms, the last also holds everything longer (server/metrics/latency-buckets.ts reads it).
-- The last statements fill both from the rows stored before (server/metrics/rebuild.ts, the same).

-- CreateTable
CREATE TABLE "ToolCallDaily" (
    "grain" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "ownerId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "okCalls" INTEGER NOT NULL DEFAULT 0,
    "toolErrors" INTEGER NOT NULL DEFAULT 0,
    "invalidArgs" INTEGER NOT NULL DEFAULT 0,
    "timeouts" INTEGER NOT NULL DEFAULT 0,
    "denied" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "otherErrors" INTEGER NOT NULL DEFAULT 0,
    "corrections" INTEGER NOT NULL DEFAULT 0,
    "durationMsSum" BIGINT NOT NULL DEFAULT 0,
    "latency" INTEGER[],

    CONSTRAINT "ToolCallDaily_pkey" PRIMARY KEY ("grain","day","ownerId","toolName","provider","model")
);

-- CreateTable
CREATE TABLE "TurnDaily" (
    "grain" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "ownerId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "failedTurns" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "stepLimitTurns" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TurnDaily_pkey" PRIMARY KEY ("grain","day","ownerId","provider","model")
);

-- CreateIndex
CREATE INDEX "ToolCallDaily_ownerId_grain_day_idx" ON "ToolCallDaily"("ownerId", "grain", "day");

-- CreateIndex
CREATE INDEX "TurnDaily_ownerId_grain_day_idx" ON "TurnDaily"("ownerId", "grain", "day");

-- AddForeignKey
ALTER TABLE "ToolCallDaily" ADD CONSTRAINT "ToolCallDaily_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnDaily" ADD CONSTRAINT "TurnDaily_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The latency bucket of a duration in ms (0..39).
CREATE FUNCTION metrics_latency_bucket(ms integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT least(39, greatest(0, ceil(ln(greatest(ms, 1)::float8 / 5) / ln(1.3))))::integer
$$;

-- Histogram of buckets: one count per bucket (an aggregate over metrics_latency_bucket values).
CREATE FUNCTION metrics_histogram_add(state integer[], bucket integer) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT state[1:bucket] || (state[bucket + 1] + 1) || state[bucket + 2:40]
$$;

CREATE AGGREGATE metrics_histogram(integer) (
  SFUNC = metrics_histogram_add,
  STYPE = integer[],
  INITCOND = '{0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}'
);

-- Element-wise sum of two histograms.
CREATE FUNCTION metrics_add_arrays(a integer[], b integer[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;

-- One row per stored tool call (tool-result part), with the model of its turn and the owner of its chat.
CREATE VIEW metrics_tool_calls AS
SELECT
  m.id AS "messageId",
  m."sessionId",
  s."ownerId",
  m."turnId",
  m."createdAt"::date AS day,
  part->>'name' AS "toolName",
  split_part(part->>'name', '.', 1) AS connector,
  t.provider,
  t.model,
  CASE
    WHEN NOT coalesce((part->>'isError')::boolean, false) THEN 'ok'
    ELSE coalesce(part->'output'->'error'->>'code', 'tool_error')
  END AS outcome,
  greatest(coalesce((part->>'durationMs')::integer, 0), 0) AS "durationMs",
  NOT coalesce((part->>'isError')::boolean, false) AND EXISTS (
    SELECT 1
    FROM "Message" prev, jsonb_array_elements(prev.parts) AS earlier
    WHERE prev."turnId" = m."turnId" AND prev.role = 'tool'
      AND prev.seq = (SELECT max(x.seq) FROM "Message" x WHERE x."turnId" = m."turnId" AND x.role = 'tool' AND x.seq < m.seq)
      AND earlier->>'name' = part->>'name'
      AND earlier->'output'->'error'->>'code' = 'invalid_arguments'
  ) AS "isCorrection"
FROM "Message" m
JOIN "ChatSession" s ON s.id = m."sessionId"
JOIN "Turn" t ON t.id = m."turnId"
CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(m.parts) = 'array' THEN m.parts ELSE '[]'::jsonb END) AS part
WHERE m.role = 'tool';

-- One row per ended turn, with its request count.
CREATE VIEW metrics_turns AS
SELECT
  t.id AS "turnId",
  t."sessionId",
  s."ownerId",
  t."startedAt"::date AS day,
  t.provider,
  t.model,
  t.status,
  (SELECT count(*) FROM "TurnRequest" r WHERE r."turnId" = t.id)::integer AS requests,
  coalesce(t."inputTokens", 0)::bigint AS "inputTokens",
  coalesce(t."outputTokens", 0)::bigint AS "outputTokens",
  coalesce(t.error->>'code' = 'step_limit', false) AS "hitStepLimit"
FROM "Turn" t
JOIN "ChatSession" s ON s.id = t."sessionId"
WHERE t."endedAt" IS NOT NULL;

-- Adds the calls of the given tool messages to ToolCallDaily.
CREATE FUNCTION metrics_add_tool_calls(ids text[]) RETURNS void
LANGUAGE sql AS $fn$
    INSERT INTO "ToolCallDaily" AS d ("grain", "day", "ownerId", "toolName", "connector", "provider", "model", "calls",
      "okCalls", "toolErrors", "invalidArgs", "timeouts", "denied", "cancelled", "otherErrors", "corrections",
      "durationMsSum", "latency")
    SELECT g.grain, CASE g.grain WHEN 'month' THEN date_trunc('month', c.day)::date ELSE c.day END,
      c."ownerId", c."toolName", c.connector, c.provider, c.model, count(*),
      count(*) FILTER (WHERE c.outcome = 'ok'),
      count(*) FILTER (WHERE c.outcome = 'tool_error'),
      count(*) FILTER (WHERE c.outcome = 'invalid_arguments'),
      count(*) FILTER (WHERE c.outcome = 'timeout'),
      count(*) FILTER (WHERE c.outcome = 'denied'),
      count(*) FILTER (WHERE c.outcome = 'cancelled'),
      count(*) FILTER (WHERE c.outcome NOT IN ('ok', 'tool_error', 'invalid_arguments', 'timeout', 'denied', 'cancelled')),
      count(*) FILTER (WHERE c."isCorrection"),
      sum(c."durationMs"),
      metrics_histogram(metrics_latency_bucket(c."durationMs"))
    FROM metrics_tool_calls c CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
    WHERE c."messageId" = ANY(ids)
    GROUP BY 1, 2, c."ownerId", c."toolName", c.connector, c.provider, c.model
    ON CONFLICT ("grain", "day", "ownerId", "toolName", "provider", "model") DO UPDATE SET
      "calls" = d."calls" + excluded."calls",
      "okCalls" = d."okCalls" + excluded."okCalls",
      "toolErrors" = d."toolErrors" + excluded."toolErrors",
      "invalidArgs" = d."invalidArgs" + excluded."invalidArgs",
      "timeouts" = d."timeouts" + excluded."timeouts",
      "denied" = d."denied" + excluded."denied",
      "cancelled" = d."cancelled" + excluded."cancelled",
      "otherErrors" = d."otherErrors" + excluded."otherErrors",
      "corrections" = d."corrections" + excluded."corrections",
      "durationMsSum" = d."durationMsSum" + excluded."durationMsSum",
      "latency" = metrics_add_arrays(d."latency", excluded."latency")
$fn$;

-- Adds the given ended turns to TurnDaily.
CREATE FUNCTION metrics_add_turns(ids text[]) RETURNS void
LANGUAGE sql AS $fn$
    INSERT INTO "TurnDaily" AS d ("grain", "day", "ownerId", "provider", "model", "turns", "failedTurns", "requests",
      "inputTokens", "outputTokens", "stepLimitTurns")
    SELECT g.grain, CASE g.grain WHEN 'month' THEN date_trunc('month', t.day)::date ELSE t.day END,
      t."ownerId", t.provider, t.model, count(*), count(*) FILTER (WHERE t.status = 'failed'),
      sum(t.requests), sum(t."inputTokens"), sum(t."outputTokens"), count(*) FILTER (WHERE t."hitStepLimit")
    FROM metrics_turns t CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
    WHERE t."turnId" = ANY(ids)
    GROUP BY 1, 2, t."ownerId", t.provider, t.model
    ON CONFLICT ("grain", "day", "ownerId", "provider", "model") DO UPDATE SET
      "turns" = d."turns" + excluded."turns",
      "failedTurns" = d."failedTurns" + excluded."failedTurns",
      "requests" = d."requests" + excluded."requests",
      "inputTokens" = d."inputTokens" + excluded."inputTokens",
      "outputTokens" = d."outputTokens" + excluded."outputTokens",
      "stepLimitTurns" = d."stepLimitTurns" + excluded."stepLimitTurns"
$fn$;

-- The trigger functions are PL/pgSQL, written as E'' strings with \073 for each semicolon: the
-- migration runner splits scripts at every semicolon, even inside a quoted function body. A message
-- insert without tool messages (user, assistant) does nothing more.
CREATE FUNCTION metrics_record_tool_messages() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN IF EXISTS (SELECT 1 FROM inserted WHERE role = \'tool\') THEN PERFORM metrics_add_tool_calls(ARRAY(SELECT id FROM inserted WHERE role = \'tool\'))\073 END IF\073 RETURN NULL\073 END';

CREATE TRIGGER metrics_tool_messages AFTER INSERT ON "Message"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION metrics_record_tool_messages();

CREATE FUNCTION metrics_record_turn_end() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN PERFORM metrics_add_turns(ARRAY[NEW.id])\073 RETURN NULL\073 END';

CREATE TRIGGER metrics_turn_end AFTER UPDATE OF "endedAt" ON "Turn"
  FOR EACH ROW WHEN (OLD."endedAt" IS NULL AND NEW."endedAt" IS NOT NULL) EXECUTE FUNCTION metrics_record_turn_end();

-- The rows stored before this migration (server/metrics/rebuild.ts runs the same to recompute).
SELECT metrics_add_tool_calls(ARRAY(SELECT id FROM "Message" WHERE role = 'tool'));
SELECT metrics_add_turns(ARRAY(SELECT id FROM "Turn" WHERE "endedAt" IS NOT NULL));
