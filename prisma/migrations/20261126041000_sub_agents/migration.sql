-- Personas as sub-agents: a persona may be offered to its owner's chats as the tool persona.<slug>,
-- with its own model, step cap, timeout and a read-only guard. SubAgentRun stores each nested run.

-- AlterTable
ALTER TABLE "Persona" ADD COLUMN "isSubAgent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "subAgentProvider" TEXT,
ADD COLUMN "subAgentModel" TEXT,
ADD COLUMN "subAgentAccountId" TEXT,
ADD COLUMN "subAgentMaxSteps" INTEGER,
ADD COLUMN "subAgentTimeoutSec" INTEGER,
ADD COLUMN "isReadOnly" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "SubAgentRun" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "personaId" TEXT,
    "personaName" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "providerAccountId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'running',
    "messages" JSONB NOT NULL DEFAULT '[]',
    "requests" JSONB NOT NULL DEFAULT '[]',
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "SubAgentRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SubAgentRun_turnId_callId_key" ON "SubAgentRun"("turnId", "callId");

-- CreateIndex
CREATE INDEX "SubAgentRun_sessionId_idx" ON "SubAgentRun"("sessionId");

-- AddForeignKey
ALTER TABLE "SubAgentRun" ADD CONSTRAINT "SubAgentRun_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SubAgentRun" ADD CONSTRAINT "SubAgentRun_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;
