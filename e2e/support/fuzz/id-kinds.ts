// What each id field of a tRPC input names, for the fuzz spec's replay of one user's real ids by
// another. The id fields are found in the router map's JSON schemas (router-map.ts), not listed by
// hand: a property named `id`, `<kind>Id` or `<kind>Ids`, at any depth. `<kind>Id` names a `<kind>`
// record; `id` names the record of the router it is in (ID_BY_ROUTER); the few fields named
// otherwise are in ID_ALIASES, and id-like fields that name no record are in NOT_RECORD_IDS with
// why. `idKind` throws for any other id-like field, so a procedure with an id the spec cannot fill
// fails the spec instead of being skipped. Pure: no I/O.
import type { JsonSchema } from "./cases.ts";
import type { ProcedureInfo } from "./router-map.ts";

/** A property name that says it holds an id (or a list of them). */
const ID_LIKE = /^(id|ids)$|[a-z](Id|Ids)$/;

/** `id` alone names the record of the router it is in. */
const ID_BY_ROUTER: [prefix: string, kind: string][] = [
  ["policy.personas.", "persona"],
  ["session.", "session"],
  ["connectors.", "connector"],
  ["accounts.", "account"],
];

/** Id fields whose name is not `<kind>Id`. */
const ID_ALIASES: Record<string, string> = {
  chatId: "session", // metrics.view: figures of one chat
};

/**
 * Id-like fields that name no record of a user's, and why (none today: the chat's resume position,
 * `lastEventId`, left tRPC with its event stream, app/api/chats/[sessionId]/events).
 */
const NOT_RECORD_IDS: Record<string, string> = {};

/** Every id-like property name of a procedure's input, at any depth and in every union variant. */
export function idLikeFieldsOf(procedure: ProcedureInfo): string[] {
  const found = new Set<string>();
  const visit = (schema: JsonSchema | undefined): void => {
    if (!schema) return;
    for (const variant of schema.anyOf ?? []) visit(variant);
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (ID_LIKE.test(key)) found.add(key);
      visit(property);
    }
    visit(schema.items);
  };
  visit((procedure.input as JsonSchema | null) ?? undefined);
  return [...found];
}

/**
 * The kind of record field `field` of procedure `procedurePath` names ("session", "question", …),
 * or undefined when it names none (not id-like, or in NOT_RECORD_IDS). Throws for an id-like field
 * it cannot place.
 */
export function idKind(procedurePath: string, field: string): string | undefined {
  if (!ID_LIKE.test(field) || field in NOT_RECORD_IDS) return undefined;
  if (field === "id" || field === "ids") {
    const kind = ID_BY_ROUTER.find(([prefix]) => procedurePath.startsWith(prefix))?.[1];
    if (!kind)
      throw new Error(
        `${procedurePath} takes \`${field}\`: say in e2e/support/fuzz/id-kinds.ts (ID_BY_ROUTER) what it names`,
      );
    return kind;
  }
  return ID_ALIASES[field] ?? field.replace(/Ids?$/, "");
}
