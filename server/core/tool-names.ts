// Turns canonical tool names (`server.tool`, e.g. `builtin.current_time`) into the names a provider is
// shown. Every exposed name matches `^[a-zA-Z_][a-zA-Z0-9_-]{0,59}$`: at most 60 characters, which
// satisfies Anthropic, OpenAI and Gemini and leaves room for a 4-character prefix such as `mcp_`
// (docs/provider-subscriptions.md, the tool-name rows). Names are a pure function of the canonical name (plus, for a
// collision, the set of colliding names), so the same tool keeps its name across requests and the
// result never depends on the order tools were listed in.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 60;
export const exposedToolNamePattern = /^[a-zA-Z_][a-zA-Z0-9_-]{0,59}$/;

const HASH_LENGTH = 8;
const MEMO_LIMIT = 20_000;
/** exposeToolName by canonical name: a tool list is named again on every registry revision. */
const exposedByCanonical = new Map<string, string>();

/** A stable 8-character hex digest of the canonical name; the same input always gives the same hash. */
export function shortHash(canonicalName: string): string {
  return createHash("sha256").update(canonicalName, "utf8").digest("hex").slice(0, HASH_LENGTH);
}

function sanitize(canonicalName: string): string {
  const replaced = canonicalName.replace(/[^a-zA-Z0-9_-]/g, "_");
  return /^[a-zA-Z_]/.test(replaced) ? replaced : `_${replaced}`;
}

/** Keeps the head and tail of a long name and puts the hash in the middle: `head_<hash>_tail`. */
function shortenWithHash(name: string, canonicalName: string): string {
  const hash = shortHash(canonicalName);
  const room = MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 2;
  const headLength = Math.ceil(room / 2);
  return `${name.slice(0, headLength)}_${hash}_${name.slice(name.length - (room - headLength))}`;
}

/**
 * The exposed name of one tool on its own: characters outside `[a-zA-Z0-9_-]` become `_`, a name that
 * does not start with a letter or `_` gets a leading `_`, and a name over 60 characters is shortened
 * in the middle around a hash of the canonical name. Use exposeToolNames for a whole tool list.
 */
export function exposeToolName(canonicalName: string): string {
  const known = exposedByCanonical.get(canonicalName);
  if (known !== undefined) return known;
  const sanitized = sanitize(canonicalName);
  const exposed = sanitized.length <= MAX_TOOL_NAME_LENGTH ? sanitized : shortenWithHash(sanitized, canonicalName);
  if (exposedByCanonical.size >= MEMO_LIMIT) exposedByCanonical.delete(exposedByCanonical.keys().next().value!);
  exposedByCanonical.set(canonicalName, exposed);
  return exposed;
}

/** The colliding form of a name: its exposed name (cut to fit) followed by `_<hash>`. */
function disambiguate(canonicalName: string): string {
  const base = exposeToolName(canonicalName);
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${shortHash(canonicalName)}`;
}

/** Thrown when two different canonical names still map to one exposed name after disambiguation. */
export class ToolNameCollisionError extends Error {
  override name = "ToolNameCollisionError";
}

function groupBy(names: string[], key: (name: string) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const groupKey = key(name);
    const group = groups.get(groupKey);
    if (group) group.push(name);
    else groups.set(groupKey, [name]);
  }
  return groups;
}

/**
 * Exposed names for a set of canonical names. Names whose sanitized forms collide all get a hash
 * suffix of their own canonical name, so which one is listed first does not matter. Throws
 * ToolNameCollisionError if a collision remains (a hash clash, or a tool literally named like
 * another's disambiguated form).
 */
export function exposeToolNames(canonicalNames: readonly string[]): Map<string, string> {
  const unique = [...new Set(canonicalNames)].sort();
  const result = new Map<string, string>();
  for (const group of groupBy(unique, exposeToolName).values()) {
    for (const name of group) result.set(name, group.length > 1 ? disambiguate(name) : exposeToolName(name));
  }
  for (const [exposed, owners] of groupBy([...result.keys()], (name) => result.get(name) ?? "")) {
    if (owners.length > 1) {
      throw new ToolNameCollisionError(
        `Tools ${owners.map((owner) => `"${owner}"`).join(", ")} would all be shown to the model as "${exposed}"; rename one of them.`,
      );
    }
  }
  return result;
}
