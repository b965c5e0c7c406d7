-- CreateEnum
CREATE TYPE "ProviderAccountKind" AS ENUM ('api_key', 'compatible', 'subscription');

-- CreateEnum
CREATE TYPE "ProviderAccountStatus" AS ENUM ('active', 'reconnect_needed');

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "providerAccountId" TEXT;

-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "providerAccountId" TEXT;

-- CreateTable
CREATE TABLE "McpOAuthGrant" (
    "userId" TEXT NOT NULL,
    "connectorId" TEXT NOT NULL,
    "sealedTokens" TEXT,
    "sealedClientInformation" TEXT,
    "sealedCodeVerifier" TEXT,
    "state" TEXT,
    "authorizationUrl" TEXT,
    "discoveryState" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpOAuthGrant_pkey" PRIMARY KEY ("userId","connectorId")
);

-- CreateTable
CREATE TABLE "ProviderAccount" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "kind" "ProviderAccountKind" NOT NULL,
    "label" TEXT NOT NULL,
    "identity" TEXT,
    "plan" TEXT,
    "baseUrl" TEXT,
    "models" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "nativeTools" BOOLEAN NOT NULL DEFAULT true,
    "secrets" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "expiresAt" TIMESTAMP(3),
    "status" "ProviderAccountStatus" NOT NULL DEFAULT 'active',
    "lastError" TEXT,
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderLogin" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "flow" TEXT NOT NULL,
    "secrets" TEXT NOT NULL,
    "intervalMs" INTEGER,
    "nextPollAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderLogin_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpOAuthGrant_state_key" ON "McpOAuthGrant"("state");

-- CreateIndex
CREATE INDEX "McpOAuthGrant_connectorId_idx" ON "McpOAuthGrant"("connectorId");

-- CreateIndex
CREATE INDEX "ProviderAccount_ownerId_idx" ON "ProviderAccount"("ownerId");

-- CreateIndex
CREATE INDEX "ProviderLogin_ownerId_idx" ON "ProviderLogin"("ownerId");

-- CreateIndex
CREATE INDEX "ChatSession_providerAccountId_idx" ON "ChatSession"("providerAccountId");

-- AddForeignKey
ALTER TABLE "ChatSession" ADD CONSTRAINT "ChatSession_providerAccountId_fkey" FOREIGN KEY ("providerAccountId") REFERENCES "ProviderAccount"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpOAuthGrant" ADD CONSTRAINT "McpOAuthGrant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpOAuthGrant" ADD CONSTRAINT "McpOAuthGrant_connectorId_fkey" FOREIGN KEY ("connectorId") REFERENCES "Connector"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderAccount" ADD CONSTRAINT "ProviderAccount_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderLogin" ADD CONSTRAINT "ProviderLogin_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
