// A synthetic but realistic workload for the render bench: a canonical transcript of long chat
// (rounds of user text -> assistant reasoning + text + two tool calls -> tool results -> assistant
// answer) produced by one provider, with the opaque providerData that provider really attaches,
// and a tool snapshot of many MCP-style tools with JSON Schemas of the shapes real servers publish
// ($defs/$ref, enums, nullable type arrays, nested objects, arrays of objects, formats). Pure and
// deterministic: the same arguments always give the same fixture.
import { exposeToolNames } from "../server/core/tool-names.ts";
import type {
  AssistantPart,
  CanonicalMessage,
  JsonValue,
  ProviderData,
  ProviderId,
  ToolSnapshot,
  ToolSpec,
} from "../server/core/canonical.ts";

const LOREM =
  "The deployment pipeline builds the image, runs the integration suite against a disposable database, " +
  "then promotes the artifact to staging where smoke tests check the health endpoints and the queue depth. ";

const words = (count: number, seed: number) => {
  const text = LOREM.repeat(Math.ceil(count / 30) + 1).split(" ");
  return text.slice(seed % 17, (seed % 17) + count).join(" ");
};

const SERVERS = ["github", "linear", "postgres", "filesystem", "slack", "jira", "sentry", "notion", "gdrive", "k8s"];
const VERBS = ["search", "get", "list", "create", "update", "delete", "archive", "comment_on", "assign", "sync"];
const NOUNS = ["issues", "pull_requests", "documents", "rows", "channels", "deployments", "alerts", "pages"];

type Schema = Record<string, JsonValue>;

const PAGING: Schema = {
  limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Maximum results to return." },
  cursor: { type: ["string", "null"], description: "Opaque cursor from a previous page." },
};

/** A search tool: one required string and paging. */
const searchSchema = (index: number): Schema => ({
  properties: { query: { type: "string", minLength: 1, description: words(18, index) }, ...PAGING },
  required: ["query"],
});

/** A GitHub-style tool: $defs with $ref, an array of referenced objects, const, a pattern. */
const issueSchema = (): Schema => ({
  $defs: {
    state: { type: "string", enum: ["open", "closed", "merged", "draft"] },
    user: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" } }, required: ["login"] },
  },
  properties: {
    repository: { type: "string", pattern: "^[\\w.-]+/[\\w.-]+$", description: "owner/name" },
    state: { $ref: "#/$defs/state" },
    assignees: { type: "array", items: { $ref: "#/$defs/user" }, maxItems: 10 },
    kind: { const: "issue" },
    ...PAGING,
  },
  required: ["repository"],
});

/** A create-task tool: formats, a numeric enum, oneOf, a nested object with a map. */
const taskSchema = (index: number): Schema => ({
  properties: {
    title: { type: "string", description: words(12, index) },
    body: { type: "string", description: "Markdown body." },
    due: { type: "string", format: "date-time" },
    priority: { type: "integer", enum: [0, 1, 2, 3, 4], description: "0 is none, 1 urgent, 4 low." },
    labels: { type: "array", items: { type: "string" }, uniqueItems: true },
    estimate: { oneOf: [{ type: "number" }, { type: "string", pattern: "^\\d+[hd]$" }] },
    metadata: {
      type: "object",
      properties: {
        source: { type: "string", enum: ["web", "api", "email"] },
        tags: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  },
  required: ["title"],
});

/** A database tool: a type array, an array of objects whose value is an anyOf. */
const querySchema = (): Schema => ({
  properties: {
    sql: { type: "string", description: "A read-only SQL statement." },
    params: { type: "array", items: { type: ["string", "number", "boolean", "null"] } },
    timeout_ms: { type: "integer", minimum: 100, maximum: 60_000 },
    filters: {
      type: "array",
      items: {
        type: "object",
        properties: {
          column: { type: "string" },
          op: { type: "string", enum: ["=", "!=", "<", ">", "like", "in"] },
          value: { anyOf: [{ type: "string" }, { type: "number" }, { type: "array", items: { type: "string" } }] },
        },
        required: ["column", "op", "value"],
      },
    },
  },
  required: ["sql"],
});

const SHAPES = [searchSchema, issueSchema, taskSchema, querySchema];

function toolSchema(index: number): Schema {
  const shape = SHAPES[index % SHAPES.length]!(index);
  return { $schema: "http://json-schema.org/draft-07/schema#", type: "object", additionalProperties: false, ...shape };
}

/** `count` tools named `<server>.<verb>_<noun>[_<n>]`, exposed names as the registry assigns them. */
export function syntheticSnapshot(count: number): ToolSnapshot {
  const specs = Array.from({ length: count }, (_, index) => {
    const server = SERVERS[index % SERVERS.length]!;
    const verb = VERBS[Math.floor(index / SERVERS.length) % VERBS.length]!;
    const noun = NOUNS[index % NOUNS.length]!;
    const suffix =
      index >= SERVERS.length * VERBS.length ? `_${Math.floor(index / (SERVERS.length * VERBS.length))}` : "";
    return {
      canonicalName: `${server}.${verb}_${noun}${suffix}`,
      description: `${verb.replace("_", " ")} ${noun.replace("_", " ")} in ${server}. ${words(25, index)}`,
      inputSchema: toolSchema(index),
    };
  });
  const names = exposeToolNames(specs.map((spec) => spec.canonicalName));
  const tools: ToolSpec[] = specs.map((spec) => ({ ...spec, exposedName: names.get(spec.canonicalName)! }));
  return { revision: 42, tools };
}

/** The opaque data `provider` attaches to reasoning, text and tool-call parts (fixture-shaped values). */
function providerDataOf(provider: ProviderId, round: number) {
  type Data = Record<string, string> | undefined;
  const signature = `EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Pt${round}`.repeat(4);
  const table: Record<ProviderId, { reasoning: Data; text: Data; call: Data }> = {
    anthropic: { reasoning: { signature }, text: undefined, call: undefined },
    openai: {
      reasoning: { itemId: `rs_${round}`, reasoningEncryptedContent: signature },
      text: { itemId: `msg_${round}` },
      call: { itemId: `fc_${round}` },
    },
    google: { reasoning: undefined, text: { thoughtSignature: signature }, call: { thoughtSignature: signature } },
    "openai-compatible": { reasoning: undefined, text: undefined, call: undefined },
  };
  const tag = (data: Data): { providerData?: ProviderData } => (data ? { providerData: { provider, data } } : {});
  const entry = table[provider];
  return { reasoning: tag(entry.reasoning), text: tag(entry.text), call: tag(entry.call) };
}

function toolOutput(round: number): JsonValue {
  if (round % 3 === 0) return `Found ${round} results.\n${words(60, round)}`;
  return {
    total: 5,
    items: Array.from({ length: 5 }, (_, item) => ({
      id: round * 10 + item,
      title: words(8, round + item),
      state: item % 2 === 0 ? "open" : "closed",
      url: `https://example.test/items/${round * 10 + item}`,
      labels: ["bug", "p2"],
    })),
  };
}

/** One round (4 messages): user -> assistant with 2 calls -> tool results -> assistant answer. */
function round(provider: ProviderId, index: number, snapshot: ToolSnapshot): CanonicalMessage[] {
  const data = providerDataOf(provider, index);
  // Every 7th round calls a tool that is no longer in the snapshot (the name is derived again).
  const names = [index % 7 === 0 ? "retired.old_tool" : snapshot.tools[index % snapshot.tools.length]!.canonicalName];
  names.push(snapshot.tools[(index * 13) % snapshot.tools.length]!.canonicalName);
  const calls: AssistantPart[] = names.map((name, call) => ({
    type: "tool-call",
    id: `call_r${index}c${call}`,
    name,
    args: { query: words(5, index + call), limit: 10 },
    providerCallId: { provider, id: `${provider}_native_${index}_${call}` },
    ...(call === 0 ? data.call : {}),
  }));
  return [
    { id: `u${index}`, role: "user", parts: [{ type: "text", text: words(35, index) }] },
    {
      id: `a${index}`,
      role: "assistant",
      parts: [
        { type: "reasoning", text: words(70, index), ...data.reasoning },
        { type: "text", text: words(20, index), ...data.text },
        ...calls,
      ],
    },
    {
      id: `t${index}`,
      role: "tool",
      parts: calls.map((call, n) => ({
        type: "tool-result",
        callId: (call as { id: string }).id,
        name: names[n]!,
        output: toolOutput(index + n),
        isError: index % 11 === 0 && n === 1,
      })),
    },
    { id: `b${index}`, role: "assistant", parts: [{ type: "text", text: words(140, index), ...data.text }] },
  ];
}

/**
 * `messageCount` messages as produced by `provider`: whole rounds, then the start of one more, then
 * the new user message the request answers (the last message is always a user message).
 */
export function syntheticTranscript(provider: ProviderId, messageCount: number, snapshot: ToolSnapshot) {
  const messages: CanonicalMessage[] = [];
  let index = 0;
  for (; messages.length + 4 < messageCount; index++) messages.push(...round(provider, index, snapshot));
  messages.push(...round(provider, index, snapshot).slice(0, messageCount - messages.length - 1));
  messages.push({ id: "u-last", role: "user", parts: [{ type: "text", text: words(30, 3) }] });
  return { system: "You are a helpful assistant in Patchbay, a chat app.", messages };
}
