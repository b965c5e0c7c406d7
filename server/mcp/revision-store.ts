// The registry's Postgres side, one statement per step so a revision costs two round trips. The
// statements of every rebuild and turn (state, latest revision, commit) are raw parameterised SQL on
// the client's pg pool (poolOf), as the session engine's hot path is: Prisma's per-query CPU cost
// was most of their time.
// - readRegistryState: the session's revision, its persona's allowlist, its switched-off built-ins, its
//   connector bindings (with each connector's name, source and row fingerprint) and its owner's
//   sub-agent personas, from one statement (so one consistent view, and one round trip).
// - commitRevision: stores the tool lists and selections not yet known to be stored (content-
//   addressed, snapshot-manifest.ts), bumps ChatSession.toolsRevision and inserts the revision's
//   manifest, atomically (one statement), and only if the revision is still the one the state was
//   read at (compare-and-set). A concurrent rebuild elsewhere makes it return null; the caller reads
//   again and recomposes, so the highest revision always reflects the bindings as they were after
//   the last change. Lists and selections it stored stay (they are immutable and shared). A manifest
//   identical to the latest revision's makes no revision at all.
// - readRevision: one revision back: its manifest or, for revisions stored before manifests, the
//   whole tool array the row holds; fetchToolLists / fetchSelections read content by hash.
import { z } from "zod";

import { poolOf, type Db } from "../db/client.ts";
import { toolPolicySchema } from "../core/tool-policy.ts";
import type { McpTool } from "./connection-types.ts";
import type { RegistryTool } from "./registry-tool.ts";
import type { SubAgentPersona } from "./sub-agent-tools.ts";
import { selectionSchema, snapshotManifestSchema, type Selection, type SnapshotManifest } from "./snapshot-manifest.ts";

const bindingSchema = z.object({
  connectorId: z.string(),
  /** The connector's name and source, for name clashes (name-clashes.ts). */
  name: z.string(),
  source: z.enum(["admin", "user"]),
  enabled: z.boolean(),
  disabledTools: z.array(z.string()),
  policy: toolPolicySchema,
  toolPolicies: z.unknown(),
  /**
   * MD5 of what a connector's config is resolved from (its row's source, name, transport, URL and
   * sealed secrets): equal fingerprints resolve to the same config (connector-lists.ts caches by it).
   */
  fingerprint: z.string(),
});
export type Binding = z.infer<typeof bindingSchema>;
const subAgentSchema = z.object({ id: z.string(), name: z.string(), systemPrompt: z.string() });
/**
 * `disabledBuiltins`: the built-in tools (tool names) switched off in the chat; `subAgents`: the
 * owner's personas offered as sub-agents (sub-agent-tools.ts), in name order.
 */
export type RegistryState = {
  revision: number;
  allowlist: string[] | null;
  bindings: Binding[];
  disabledBuiltins: string[];
  subAgents: SubAgentPersona[];
};
type StateRow = {
  revision: number;
  allowlist: string[] | null;
  bindings: unknown;
  disabledBuiltins: string[] | null;
  subAgents: unknown;
};

/** The session's registry inputs, or null when the session does not exist. */
export async function readRegistryState(db: Db, sessionId: string): Promise<RegistryState | null> {
  const { rows } = await poolOf(db).query<StateRow>(
    `
    SELECT s."toolsRevision" AS revision, p."toolAllowlist" AS allowlist, s."disabledBuiltins" AS "disabledBuiltins",
      COALESCE((
        SELECT json_agg(json_build_object(
            'connectorId', b."connectorId", 'name', c."name", 'source', c."source", 'enabled', b."enabled",
            'disabledTools', b."disabledTools", 'policy', b."policy", 'toolPolicies', b."toolPolicies",
            'fingerprint', md5(json_build_array(c."source", c."name", c."transport", c."url", c."secrets")::text))
          ORDER BY b."createdAt", b."connectorId")
        FROM "SessionConnector" b JOIN "Connector" c ON c.id = b."connectorId"
        WHERE b."sessionId" = s.id), '[]'::json) AS bindings,
      COALESCE((
        SELECT json_agg(json_build_object('id', a.id, 'name', a."name", 'systemPrompt', a."systemPrompt") ORDER BY a."name")
        FROM "Persona" a WHERE a."ownerId" = s."ownerId" AND a."isSubAgent"), '[]'::json) AS "subAgents"
    FROM "ChatSession" s LEFT JOIN "Persona" p ON p.id = s."personaId"
    WHERE s.id = $1::text`,
    [sessionId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    revision: row.revision,
    allowlist: row.allowlist,
    bindings: z.array(bindingSchema).parse(row.bindings),
    disabledBuiltins: row.disabledBuiltins ?? [],
    subAgents: z.array(subAgentSchema).parse(row.subAgents),
  };
}

export type RevisionWrite = {
  sessionId: string;
  /** The revision the state was read at; the write happens only if it is still the latest. */
  readAt: number;
  /** JSON arrays of `{ hash, value }` rows to insert (HashedStore.pendingRows). */
  pendingLists: string;
  pendingSelections: string;
  manifest: SnapshotManifest;
  reason: string;
};

/**
 * What a commit did: `created` a new revision; found the latest revision (still `readAt`) already
 * holds this very manifest, so made none (`unchanged`: identical tools never make a revision, e.g.
 * when several instances rebuild for one list_changed); or `lost` to another rebuild (nothing but
 * lists and selections was written).
 */
export type CommitResult = { kind: "created" | "unchanged"; revision: number } | { kind: "lost" };

export async function commitRevision(db: Db, write: RevisionWrite): Promise<CommitResult> {
  const { sessionId, readAt, pendingLists, pendingSelections, manifest, reason } = write;
  const manifestJson = JSON.stringify(manifest);
  // updatedAt as Prisma's @updatedAt would set it: a registry change counts as a change of the chat.
  const { rows } = await poolOf(db).query<{ revision: number | null; unchanged: boolean }>(
    `WITH lists AS (
      INSERT INTO "ToolList" ("hash", "tools")
      SELECT row->>'hash', row->'value' FROM json_array_elements($3::json) AS row
      ON CONFLICT ("hash") DO NOTHING
    ), selections AS (
      INSERT INTO "ToolSelection" ("hash", "selection")
      SELECT row->>'hash', row->'value' FROM json_array_elements($4::json) AS row
      ON CONFLICT ("hash") DO NOTHING
    ), same AS (
      SELECT 1 FROM "ToolSnapshot" t JOIN "ChatSession" s ON s.id = t."sessionId" AND s."toolsRevision" = t."revision"
      WHERE t."sessionId" = $1::text AND t."revision" = $2::int AND t."manifest" = $5::jsonb
    ), bumped AS (
      UPDATE "ChatSession" SET "toolsRevision" = "toolsRevision" + 1, "updatedAt" = now() AT TIME ZONE 'UTC'
      WHERE id = $1::text AND "toolsRevision" = $2::int AND NOT EXISTS (SELECT 1 FROM same)
      RETURNING "toolsRevision"
    ), inserted AS (
      INSERT INTO "ToolSnapshot" ("sessionId", "revision", "manifest", "reason")
      SELECT $1::text, "toolsRevision", $5::jsonb, $6::text FROM bumped
      RETURNING "revision"
    )
    SELECT (SELECT "revision" FROM inserted) AS revision, EXISTS (SELECT 1 FROM same) AS unchanged`,
    [sessionId, readAt, pendingLists, pendingSelections, manifestJson, reason],
  );
  const row = rows[0];
  if (row?.unchanged) return { kind: "unchanged", revision: readAt };
  if (row?.revision != null) return { kind: "created", revision: row.revision };
  return { kind: "lost" };
}

/** The session's latest revision (0: none built yet), or null when the session does not exist. */
export async function readLatestRevision(db: Db, sessionId: string): Promise<number | null> {
  const { rows } = await poolOf(db).query<{ revision: number }>(
    `SELECT "toolsRevision" AS revision FROM "ChatSession" WHERE id = $1::text`,
    [sessionId],
  );
  return rows[0]?.revision ?? null;
}

export type StoredRevision =
  | { revision: number; kind: "manifest"; manifest: SnapshotManifest }
  | { revision: number; kind: "tools"; tools: RegistryTool[] };

export async function readRevision(db: Db, sessionId: string, revision: number): Promise<StoredRevision> {
  const row = await db.toolSnapshot.findUniqueOrThrow({
    where: { sessionId_revision: { sessionId, revision } },
    select: { revision: true, tools: true, manifest: true },
  });
  if (row.manifest !== null)
    return { revision, kind: "manifest", manifest: snapshotManifestSchema.parse(row.manifest) };
  return { revision, kind: "tools", tools: row.tools as RegistryTool[] };
}

export function fetchToolLists(db: Db, hashes: string[]): Promise<{ hash: string; value: McpTool[] }[]> {
  return db.$queryRaw`SELECT "hash", "tools" AS value FROM "ToolList" WHERE "hash" = ANY(${hashes}::text[])`;
}

export async function fetchSelections(db: Db, hashes: string[]): Promise<{ hash: string; value: Selection }[]> {
  const rows = await db.$queryRaw<{ hash: string; value: unknown }[]>`
    SELECT "hash", "selection" AS value FROM "ToolSelection" WHERE "hash" = ANY(${hashes}::text[])`;
  return rows.map((row) => ({ hash: row.hash, value: selectionSchema.parse(row.value) }));
}
