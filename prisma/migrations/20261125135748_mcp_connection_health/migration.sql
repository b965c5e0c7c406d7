-- What each app instance sees of each MCP connection, renewed by a heartbeat: a connector's tools
-- leave a chat only when no live instance reaches it (server/mcp/health-board.ts).

-- CreateTable
CREATE TABLE "McpConnectionHealth" (
    "instanceId" TEXT NOT NULL,
    "connectionKey" TEXT NOT NULL,
    "isReachable" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "McpConnectionHealth_pkey" PRIMARY KEY ("instanceId","connectionKey")
);

-- CreateIndex
CREATE INDEX "McpConnectionHealth_connectionKey_idx" ON "McpConnectionHealth"("connectionKey");
