-- Context overlays (server/session/overlays.ts): per-chat changes of what the model sees, stored
-- beside the canonical history, with a monotonic revision on the chat, and on each model request
-- the revision it was rendered with and what was excluded, pinned and replaced.

-- CreateEnum
CREATE TYPE "ContextOverlayKind" AS ENUM ('exclude', 'pin', 'replace');

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "overlayRevision" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "TurnRequest" ADD COLUMN "overlayRevision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "overlays" JSONB;

-- CreateTable
CREATE TABLE "ContextOverlay" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "kind" "ContextOverlayKind" NOT NULL,
    "messageId" TEXT,
    "callId" TEXT,
    "text" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContextOverlay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ContextOverlay_sessionId_createdAt_idx" ON "ContextOverlay"("sessionId", "createdAt");

-- AddForeignKey
ALTER TABLE "ContextOverlay" ADD CONSTRAINT "ContextOverlay_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
