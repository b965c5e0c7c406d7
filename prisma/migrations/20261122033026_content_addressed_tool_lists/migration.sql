-- Content-addressed tool lists: a revision's ToolSnapshot row keeps only a manifest (the hashes of
-- its ToolSelections, each naming a ToolList). Rows written before this migration keep their whole
-- tool array in "tools" and stay readable as they are (server/mcp/revision-store.ts reads both);
-- new rows leave "tools" null and set "manifest".

-- AlterTable
ALTER TABLE "ToolSnapshot" ADD COLUMN     "manifest" JSONB,
ALTER COLUMN "tools" DROP NOT NULL;

-- CreateTable
CREATE TABLE "ToolList" (
    "hash" TEXT NOT NULL,
    "tools" JSON NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolList_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "ToolSelection" (
    "hash" TEXT NOT NULL,
    "selection" JSON NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolSelection_pkey" PRIMARY KEY ("hash")
);
