-- CreateEnum
CREATE TYPE "ToolPolicy" AS ENUM ('allow', 'ask', 'deny');

-- CreateEnum
CREATE TYPE "ToolApprovalStatus" AS ENUM ('pending', 'approved', 'denied', 'expired');

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "personaId" TEXT;

-- AlterTable
ALTER TABLE "SessionConnector" ADD COLUMN     "policy" "ToolPolicy" NOT NULL DEFAULT 'allow',
ADD COLUMN     "toolPolicies" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "Persona" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "systemPrompt" TEXT NOT NULL,
    "toolAllowlist" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Persona_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ToolApproval" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "status" "ToolApprovalStatus" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,

    CONSTRAINT "ToolApproval_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Persona_ownerId_name_key" ON "Persona"("ownerId", "name");

-- CreateIndex
CREATE INDEX "ToolApproval_sessionId_status_idx" ON "ToolApproval"("sessionId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ToolApproval_turnId_callId_key" ON "ToolApproval"("turnId", "callId");

-- CreateIndex
CREATE INDEX "ChatSession_personaId_idx" ON "ChatSession"("personaId");

-- AddForeignKey
ALTER TABLE "ChatSession" ADD CONSTRAINT "ChatSession_personaId_fkey" FOREIGN KEY ("personaId") REFERENCES "Persona"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Persona" ADD CONSTRAINT "Persona_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolApproval" ADD CONSTRAINT "ToolApproval_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolApproval" ADD CONSTRAINT "ToolApproval_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;
