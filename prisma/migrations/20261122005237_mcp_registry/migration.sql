-- CreateEnum
CREATE TYPE "ConnectorSource" AS ENUM ('admin', 'user');

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "toolsRevision" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Connector" (
    "id" TEXT NOT NULL,
    "source" "ConnectorSource" NOT NULL,
    "ownerId" TEXT,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "url" TEXT,
    "secrets" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Connector_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SessionConnector" (
    "sessionId" TEXT NOT NULL,
    "connectorId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledTools" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SessionConnector_pkey" PRIMARY KEY ("sessionId","connectorId")
);

-- CreateTable
CREATE TABLE "ToolSnapshot" (
    "sessionId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "tools" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolSnapshot_pkey" PRIMARY KEY ("sessionId","revision")
);

-- CreateIndex
CREATE UNIQUE INDEX "Connector_source_ownerId_name_key" ON "Connector"("source", "ownerId", "name");

-- CreateIndex
CREATE INDEX "SessionConnector_connectorId_idx" ON "SessionConnector"("connectorId");

-- AddForeignKey
ALTER TABLE "Connector" ADD CONSTRAINT "Connector_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SessionConnector" ADD CONSTRAINT "SessionConnector_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SessionConnector" ADD CONSTRAINT "SessionConnector_connectorId_fkey" FOREIGN KEY ("connectorId") REFERENCES "Connector"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolSnapshot" ADD CONSTRAINT "ToolSnapshot_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
