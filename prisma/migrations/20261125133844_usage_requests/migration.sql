-- Per-user usage of the server's own provider keys: one row per model request, with its tokens
-- (server/policy/usage-limits.ts counts them against USER_REQUESTS_PER_MINUTE / USER_TOKENS_PER_DAY).

-- CreateTable
CREATE TABLE "UsageRequest" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageRequest_userId_startedAt_idx" ON "UsageRequest"("userId", "startedAt");

-- AddForeignKey
ALTER TABLE "UsageRequest" ADD CONSTRAINT "UsageRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
