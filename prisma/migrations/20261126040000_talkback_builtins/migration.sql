-- CreateEnum
CREATE TYPE "FollowupQuestionStatus" AS ENUM ('pending', 'answered', 'expired');

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "disabledBuiltins" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "FollowupQuestion" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "options" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "answer" TEXT,
    "status" "FollowupQuestionStatus" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answeredAt" TIMESTAMP(3),

    CONSTRAINT "FollowupQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FollowupQuestion_sessionId_status_idx" ON "FollowupQuestion"("sessionId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "FollowupQuestion_turnId_callId_key" ON "FollowupQuestion"("turnId", "callId");

-- AddForeignKey
ALTER TABLE "FollowupQuestion" ADD CONSTRAINT "FollowupQuestion_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowupQuestion" ADD CONSTRAINT "FollowupQuestion_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;
