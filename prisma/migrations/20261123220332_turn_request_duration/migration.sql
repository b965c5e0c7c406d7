-- Per-request timing in the turn audit: how long each model request took, from sending it to the end
-- of its stream (token usage per request was already stored in inputTokens / outputTokens).

-- AlterTable
ALTER TABLE "TurnRequest" ADD COLUMN     "durationMs" INTEGER;
