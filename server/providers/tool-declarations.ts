// The tools a request declares, per provider: each snapshot tool under its exposed name with its
// description and its input schema in the provider's form (Gemini's OpenAPI subset, google/schema.ts;
// for the others the JSON Schema with a root `type: "object"`). Pure, and memoised by identity:
// - per snapshot tool array (revisions are values: a snapshot's tools never change once read), so
//   every request of a known revision reuses one frozen declaration record per provider;
// - per input schema object (a connector's tool list is shared by every revision built from it,
//   tool-lists.ts), so a new revision converts only the schemas it has not seen.
// Both memos are WeakMaps: nothing is kept once its snapshot or list is gone, and a key is an object
// only its own snapshot holds, so one session's declarations never serve another's tools.
// Callers must not mutate what they get (the records are frozen; the schemas are shared).
import { jsonSchema, tool, type Tool } from "ai";

import type { JsonValue, ProviderId, ToolSpec } from "../core/canonical.ts";
import { toGeminiSchema } from "./google/schema.ts";

/** How a provider is sent a schema: Gemini's subset, or JSON Schema as it is. */
type SchemaForm = "gemini" | "json";
type WrappedSchema = ReturnType<typeof jsonSchema>;

/** What a snapshot declares to one provider. */
export type ToolDeclarations = {
  /** AI SDK tools by exposed name, in snapshot order (frozen). */
  tools: Readonly<Record<string, Tool>>;
  /** Their exposed names, in the same order (frozen). */
  names: readonly string[];
};

const bySnapshot = new WeakMap<readonly ToolSpec[], Map<SchemaForm, ToolDeclarations>>();
const bySchema = new WeakMap<Record<string, JsonValue>, Map<SchemaForm, WrappedSchema>>();

const formOf = (provider: ProviderId): SchemaForm => (provider === "google" ? "gemini" : "json");

function convertSchema(schema: Record<string, JsonValue>, form: SchemaForm): Record<string, JsonValue> {
  if (form === "gemini") return toGeminiSchema(schema);
  return schema.type === undefined ? { ...schema, type: "object" } : schema;
}

/** `memo`'s value for `key` in `form`, made by `make` the first time it is asked for. */
function memoised<K extends object, V>(
  memo: WeakMap<K, Map<SchemaForm, V>>,
  key: K,
  form: SchemaForm,
  make: () => V,
): V {
  let forms = memo.get(key);
  if (!forms) memo.set(key, (forms = new Map<SchemaForm, V>()));
  let value = forms.get(form);
  if (value === undefined) forms.set(form, (value = make()));
  return value;
}

/** The AI SDK schema of one input schema object in one form, converted once per object. */
export function providerSchema(schema: Record<string, JsonValue>, provider: ProviderId): WrappedSchema {
  const form = formOf(provider);
  return memoised(bySchema, schema, form, () =>
    jsonSchema(convertSchema(schema, form) as Parameters<typeof jsonSchema>[0]),
  );
}

function buildDeclarations(tools: readonly ToolSpec[], provider: ProviderId): ToolDeclarations {
  const declared: Record<string, Tool> = {};
  for (const spec of tools) {
    declared[spec.exposedName] = tool({
      description: spec.description,
      inputSchema: providerSchema(spec.inputSchema, provider),
    });
  }
  return { tools: Object.freeze(declared), names: Object.freeze(Object.keys(declared)) };
}

/** The declarations of these snapshot tools for this provider; the same object for the same array. */
export function declareTools(tools: readonly ToolSpec[], provider: ProviderId): ToolDeclarations {
  return memoised(bySnapshot, tools, formOf(provider), () => buildDeclarations(tools, provider));
}
