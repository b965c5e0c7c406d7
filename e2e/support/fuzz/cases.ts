// Generates the fuzz requests for one tRPC procedure from its input's JSON Schema (router-map.ts):
// a valid-shaped sample, then the same with each field of the wrong type, missing, too long, with a
// NUL byte or a lone surrogate, extra fields (`__proto__` included), whole inputs of the wrong kind,
// malformed and truncated bodies, a malformed `?input=` and a superjson meta it must refuse. Ids in
// a sample come from `idFor`, so the same generator builds the second user's replay of the first
// user's real ids. Pure: it builds requests, it sends none.
import type { ProcedureInfo } from "./router-map.ts";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  minItems?: number;
  items?: JsonSchema;
};

/** One request: `body` is the raw text sent (POST) or put in `?input=` (GET), `undefined` for none. */
export type FuzzCase = { name: string; body: string | undefined };

/** The id to put in field `field` of procedure `path`, or undefined when the field is not an id. */
export type IdFor = (path: string, field: string) => string | undefined;

const HUGE = "x".repeat(300_000);

function envelope(json: unknown): string {
  return JSON.stringify({ json });
}

function firstVariant(schema: JsonSchema): JsonSchema {
  if (!schema.anyOf) return schema;
  return schema.anyOf.find((variant) => variant.type !== "null") ?? schema.anyOf[0]!;
}

/** Whether field `field` is an id or an object with an id somewhere inside. */
function holdsId(schema: JsonSchema, path: string, field: string, idFor: IdFor): boolean {
  if (idFor(path, field) !== undefined) return true;
  const variant = firstVariant(schema);
  return Object.entries(variant.properties ?? {}).some(([key, property]) => holdsId(property, path, key, idFor));
}

/** A value the schema accepts (as far as a generator can tell); ids from `idFor`. */
export function sampleOf(schema: JsonSchema, path: string, field: string, idFor: IdFor, withOptional = false): unknown {
  const variant = firstVariant(schema);
  const id = idFor(path, field);
  if (id !== undefined && (variant.type === "string" || variant.type === undefined)) return id;
  if (id !== undefined && variant.type === "array") return [id];
  if (variant.const !== undefined) return variant.const;
  if (variant.enum) return variant.enum[0];
  switch (variant.type) {
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(variant.properties ?? {})) {
        const isRequired = variant.required?.includes(key) ?? false;
        if (isRequired || (withOptional && holdsId(property, path, key, idFor)))
          result[key] = sampleOf(property, path, key, idFor, withOptional);
      }
      return result;
    }
    case "string":
      if (variant.format === "uri") return "http://127.0.0.1:9/v1"; // refused at once: nothing listens on port 9
      if (variant.pattern === "^\\d{1,18}$") return "1";
      if (variant.pattern) return "fuzz-name";
      return "fuzz text value".padEnd(variant.minLength ?? 0, "x");
    case "boolean":
      return true;
    case "number":
    case "integer":
      return variant.minimum ?? 1;
    case "array":
      return [];
    case "null":
      return null;
    default:
      return variant.default ?? "fuzz";
  }
}

function wrongTypesFor(schema: JsonSchema): unknown[] {
  const type = firstVariant(schema).type;
  if (type === "string") return [12345, { nested: "object" }, ["array"], true];
  if (type === "boolean") return ["yes", 1];
  if (type === "number" || type === "integer") return ["ten", -1e308];
  if (type === "array") return ["not an array", { 0: "x" }];
  if (type === "object") return ["not an object", [1]];
  return [{ unexpected: true }];
}

function isStringField(schema: JsonSchema): boolean {
  const variant = firstVariant(schema);
  return variant.type === "string" && !variant.enum;
}

/** Every fuzz request for one procedure (ids that exist nowhere, so nothing real is touched). */
export function fuzzCases(procedure: ProcedureInfo, idFor: IdFor): FuzzCase[] {
  const schema = procedure.input as JsonSchema | null;
  const cases: FuzzCase[] = [
    { name: "null input", body: envelope(null) },
    { name: "a number as input", body: envelope(42) },
    { name: "a string as input", body: envelope("\u0000") },
    { name: "an array as input", body: envelope([1, 2]) },
    { name: "malformed JSON", body: "{not json" },
    { name: "a truncated body", body: '{"json":{"a":"unfinished' },
    { name: "JSON null, no envelope", body: "null" },
    { name: "a superjson meta with a __proto__ path", body: '{"json":{},"meta":{"values":{"__proto__.x":["Date"]}}}' },
    { name: "a superjson meta with an unknown type", body: '{"json":{"a":1},"meta":{"values":{"a":["NoSuchType"]}}}' },
    { name: "a huge string as input", body: envelope(HUGE) },
  ];
  if (procedure.type !== "query") cases.push({ name: "an empty body", body: "" });
  const base = schema ? sampleOf(schema, procedure.path, "", idFor) : undefined;
  if (!schema || typeof base !== "object" || base === null || Array.isArray(base)) return cases;

  const variant = firstVariant(schema);
  const baseObject = base as Record<string, unknown>;
  cases.push({ name: "an empty object", body: envelope({}) });
  cases.push({
    name: "extra fields, __proto__ among them",
    body: `{"json":{${JSON.stringify(baseObject).slice(1, -1)}${Object.keys(baseObject).length ? "," : ""}"extra":"x","__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}}`,
  });
  for (const [field, property] of Object.entries(variant.properties ?? {})) {
    for (const wrong of wrongTypesFor(property))
      cases.push({ name: `${field} = ${JSON.stringify(wrong)}`, body: envelope({ ...baseObject, [field]: wrong }) });
    if (variant.required?.includes(field)) {
      const { [field]: _dropped, ...rest } = baseObject;
      cases.push({ name: `${field} missing`, body: envelope(rest) });
    }
    if (isStringField(property)) {
      cases.push({ name: `${field} with a NUL byte`, body: envelope({ ...baseObject, [field]: "a\u0000b" }) });
      cases.push({ name: `${field} with a lone surrogate`, body: envelope({ ...baseObject, [field]: "a\ud800b" }) });
      cases.push({ name: `${field} 300,000 characters long`, body: envelope({ ...baseObject, [field]: HUGE }) });
      cases.push({ name: `${field} 40 digits`, body: envelope({ ...baseObject, [field]: "9".repeat(40) }) });
    }
  }
  return cases;
}

/**
 * Inputs with ids from `idFor`, for each variant of a union: first with every id field (optional ones
 * too, nested ones with their objects), then, when it differs and still holds an id, with the required
 * fields only — so a check of an optional id that runs first cannot hide whether the required ids are
 * checked. `[undefined]` for no input.
 */
export function replayInput(procedure: ProcedureInfo, idFor: IdFor): unknown[] {
  const schema = procedure.input as JsonSchema | null;
  if (!schema) return [undefined];
  const inputs = (schema.anyOf ?? [schema]).flatMap((variant) => {
    let idCount = 0;
    const counting: IdFor = (path, field) => {
      const id = idFor(path, field);
      if (id !== undefined) idCount++;
      return id;
    };
    const everyId = sampleOf(variant, procedure.path, "", idFor, true);
    const required = sampleOf(variant, procedure.path, "", counting, false);
    return idCount > 0 ? [everyId, required] : [everyId];
  });
  return [...new Set(inputs.map((input) => JSON.stringify(input)))].map((text) => JSON.parse(text) as unknown);
}

/** The id fields of a schema (any variant, any depth), by idFor. */
export function idFieldsOf(procedure: ProcedureInfo, idFor: IdFor): string[] {
  const fieldsIn = (schema: JsonSchema): string[] =>
    (schema.anyOf ?? [schema]).flatMap((variant) =>
      Object.entries(variant.properties ?? {}).flatMap(([field, property]) => [
        ...(idFor(procedure.path, field) !== undefined ? [field] : []),
        ...fieldsIn(property),
      ]),
    );
  const schema = procedure.input as JsonSchema | null;
  return schema ? [...new Set(fieldsIn(schema))] : [];
}
