// Converts a tool's JSON Schema into the OpenAPI 3.0 subset Gemini accepts for function parameters
// (docs/provider-subscriptions.md, Common decisions): `$ref`s are inlined from `$defs`/`definitions` (a cycle is cut to a
// plain object), type arrays become `nullable` or `anyOf`, `const` becomes a one-value `enum`,
// `oneOf` becomes `anyOf`, `allOf` is merged, tuples become an `anyOf` of their item schemas, enums
// that are not all strings move into the description, and every other keyword is dropped. The result
// is valid both as Gemini's `parameters` and as `parametersJsonSchema` (what @ai-sdk/google sends;
// it passes JSON Schema through unchanged, so this converter is our guarantee). Pure.
import type { JsonValue } from "../../core/canonical.ts";

type Schema = Record<string, JsonValue>;

/** The fields of Gemini's Schema message: the OpenAPI 3.0 subset function `parameters` accept. */
export const GEMINI_SCHEMA_FIELDS: readonly string[] = [
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "anyOf",
  "default",
  "example",
  "propertyOrdering",
];
/** The fields converted below; every other Gemini field is copied as it is. */
const convertedFields = new Set(["type", "format", "nullable", "enum", "items", "properties", "required", "anyOf"]);
const copiedKeywords = GEMINI_SCHEMA_FIELDS.filter((field) => !convertedFields.has(field));
const geminiFormats = new Set(["date-time", "enum", "float", "double", "int32", "int64"]);
const MAX_DEPTH = 32;

type Context = { root: Schema; expanding: readonly string[]; depth: number };

function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolveRef(ref: string, root: Schema): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: JsonValue | undefined = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isSchema(node) ? node[key] : undefined;
  }
  return isSchema(node) ? node : undefined;
}

function mergeAllOf(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  if (!Array.isArray(allOf)) return schema;
  const merged: Schema = { ...rest };
  for (const part of allOf.filter(isSchema)) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && isSchema(value)) merged.properties = { ...asSchema(merged.properties), ...value };
      else if (key === "required" && Array.isArray(value)) merged.required = [...asArray(merged.required), ...value];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

function asSchema(value: JsonValue | undefined): Schema {
  return isSchema(value) ? value : {};
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function convertType(schema: Schema, out: Schema): void {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => typeof t === "string");
  const nonNull = types.filter((t) => t !== "null");
  if (types.length > nonNull.length) out.nullable = true;
  if (nonNull.length === 1) out.type = nonNull[0] ?? null;
  else if (nonNull.length > 1) out.anyOf = nonNull.map((type) => ({ type }));
}

function convertEnum(schema: Schema, out: Schema): void {
  const values = schema.const !== undefined ? [schema.const] : asArray(schema.enum);
  if (values.length === 0) return;
  if (values.every((value) => typeof value === "string")) {
    out.enum = values;
    out.type ??= "string";
    return;
  }
  const allowed = `Allowed values: ${values.map((value) => JSON.stringify(value)).join(", ")}.`;
  out.description = typeof out.description === "string" ? `${out.description} ${allowed}` : allowed;
}

function convertAnyOf(options: JsonValue[], ctx: Context, out: Schema): void {
  const isNull = (option: JsonValue) => isSchema(option) && option.type === "null";
  const converted = options.filter((option) => !isNull(option)).map((option) => convert(option, ctx));
  if (converted.length < options.length) out.nullable = true;
  if (converted.length === 1) Object.assign(out, converted[0], out.nullable ? { nullable: true } : {});
  else if (converted.length > 1) out.anyOf = converted;
}

function convertObject(schema: Schema, ctx: Context, out: Schema): void {
  const properties = schema.properties;
  if (!isSchema(properties)) return;
  const entries = Object.entries(properties).map(([key, value]) => [key, convert(value, ctx)] as const);
  if (entries.length === 0) return;
  out.properties = Object.fromEntries(entries);
  const required = asArray(schema.required).filter((name) => typeof name === "string" && name in properties);
  if (required.length > 0) out.required = [...new Set(required)];
  out.type ??= "object";
}

function convertItems(schema: Schema, ctx: Context, out: Schema): void {
  const items = schema.prefixItems ?? schema.items;
  if (Array.isArray(items)) {
    const converted = items.map((item) => convert(item, ctx));
    out.items = converted.length === 1 ? (converted[0] ?? {}) : { anyOf: converted };
  } else if (items !== undefined) {
    out.items = convert(items, ctx);
  }
}

function copyKeywords(schema: Schema, out: Schema): void {
  for (const key of copiedKeywords) if (schema[key] !== undefined) out[key] = schema[key];
  if (typeof schema.format === "string" && geminiFormats.has(schema.format)) out.format = schema.format;
  if (typeof schema.exclusiveMinimum === "number") out.minimum ??= schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === "number") out.maximum ??= schema.exclusiveMaximum;
}

function convert(input: JsonValue, ctx: Context): Schema {
  if (!isSchema(input) || ctx.depth > MAX_DEPTH) return {};
  if (typeof input.$ref === "string") {
    const target = resolveRef(input.$ref, ctx.root);
    if (!target || ctx.expanding.includes(input.$ref)) return { type: "object" };
    const { $ref: _ref, ...siblings } = input;
    const next = { ...ctx, expanding: [...ctx.expanding, input.$ref], depth: ctx.depth + 1 };
    return convert({ ...target, ...siblings }, next);
  }
  const schema = mergeAllOf(input);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  const out: Schema = {};
  copyKeywords(schema, out);
  convertType(schema, out);
  convertEnum(schema, out);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) convertAnyOf(union, inner, out);
  convertObject(schema, inner, out);
  convertItems(schema, inner, out);
  return out;
}

const CACHE_LIMIT = 5_000;
/** Converted schemas by their JSON text: tool schemas repeat on every request of every turn. */
const cache = new Map<string, Record<string, JsonValue>>();

function convertRoot(jsonSchema: Record<string, JsonValue>): Record<string, JsonValue> {
  const converted = convert(jsonSchema, { root: jsonSchema, expanding: [], depth: 0 });
  const { nullable: _nullable, anyOf: _anyOf, ...root } = converted;
  return { ...root, type: "object" };
}

/**
 * The Gemini-safe form of a tool input schema; the root is always `type: "object"`. Memoised by
 * the schema's JSON text (a pure function of it); callers must not mutate the result.
 */
export function toGeminiSchema(jsonSchema: Record<string, JsonValue>): Record<string, JsonValue> {
  const key = JSON.stringify(jsonSchema);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = convertRoot(jsonSchema);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}
