// The tool-declaration rules the real provider APIs enforce, shared by the fake provider's per-wire
// validators: name patterns (Anthropic and OpenAI `^[a-zA-Z0-9_-]{1,64}$`; Gemini starts with a
// letter or `_`, then `[a-zA-Z0-9_.:-]`, 64 at most), unique names within one request, object
// schemas for function parameters, local `$ref`s that resolve and do not cycle, and Gemini's
// OpenAPI 3.0 subset for `parameters` (docs/provider-subscriptions.md). Every check returns the first
// problem as a message naming the offending path, or undefined. Pure.
import { GEMINI_SCHEMA_FIELDS } from "../../../server/providers/google/schema.ts";
import { asString } from "./wire.ts";

export const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const ANTHROPIC_TOOL_NAME = OPENAI_TOOL_NAME;
export const GEMINI_TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

export type Problem = string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first problem of a list of lazily computed checks. */
export function firstProblem(...checks: (() => Problem)[]): Problem {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Each name must match `pattern`, and no two declared tools may share a name. */
export function checkToolNames(tools: { path: string; name: unknown }[], pattern: RegExp): Problem {
  const seen = new Map<string, string>();
  for (const { path, name } of tools) {
    if (typeof name !== "string" || !pattern.test(name)) {
      return `${path}: String should match pattern '${pattern.source}' (got ${JSON.stringify(name)})`;
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) return `${path}: tool names must be unique ('${name}' is also ${earlier})`;
    seen.set(name, path);
  }
  return undefined;
}

/** A function's parameters: a JSON Schema object with `type: "object"`. */
export function checkObjectSchema(schema: unknown, path: string): Problem {
  if (!isObject(schema)) return `${path}: must be a JSON Schema object`;
  if (schema.type !== "object") {
    return `${path}.type: Input should be 'object' (got ${JSON.stringify(schema.type ?? null)})`;
  }
  return checkLocalRefs(schema, path);
}

function resolvePointer(root: unknown, ref: string): unknown {
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[key] : Array.isArray(node) ? (node as unknown[])[Number(key)] : undefined;
  }
  return node;
}

/** Every local `$ref` (`#/…`) resolves, and following refs never loops back to one already open. */
export function checkLocalRefs(root: Record<string, unknown>, path: string): Problem {
  const visit = (node: unknown, at: string, open: readonly string[]): Problem => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) {
        const problem = visit(item, `${at}[${index}]`, open);
        if (problem) return problem;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    const ref = asString(node.$ref);
    if (ref?.startsWith("#")) {
      if (open.includes(ref)) return `${at}.$ref: cyclic reference '${ref}' (schema depth exceeded)`;
      const target = resolvePointer(root, ref);
      if (!isObject(target)) return `${at}.$ref: cannot resolve '${ref}'`;
      const problem = visit(target, at, [...open, ref]);
      if (problem) return problem;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$defs" || key === "definitions") continue; // reached through the refs that use them
      const problem = visit(value, `${at}.${key}`, open);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(root, path, []);
}

/** The fields of Gemini's Schema message (the OpenAPI 3.0 subset `parameters` accepts). */
const GEMINI_FIELDS = new Set(GEMINI_SCHEMA_FIELDS);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);

/**
 * Gemini `parameters`: only the Schema message's fields (an unknown one — `$schema`, `$ref`,
 * `$defs`, `additionalProperties`, `const`, `exclusiveMinimum`, `oneOf`, … — is "Cannot find
 * field"), `type` one enum name (no type arrays, no "null"), string enums, `items` one schema (no
 * tuples), and an OBJECT with `properties` has at least one.
 */
export function checkGeminiSchema(schema: unknown, path: string): Problem {
  if (!isObject(schema)) return `Invalid value at '${path}': expected a Schema object`;
  for (const key of Object.keys(schema)) {
    if (!GEMINI_FIELDS.has(key)) {
      return `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`;
    }
  }
  const { type, items, properties, anyOf } = schema;
  if (type !== undefined && (typeof type !== "string" || !GEMINI_TYPES.has(type.toUpperCase()))) {
    return `Invalid value at '${path}.type' (type.googleapis.com/google.cloud.aiplatform.v1.Type), ${JSON.stringify(type)}`;
  }
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string"))) {
    return `Invalid value at '${path}.enum' (TYPE_STRING): enum values must be strings`;
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every(isString))) {
    return `Invalid value at '${path}.required' (TYPE_STRING)`;
  }
  if (Array.isArray(items))
    return `Invalid value at '${path}.items': tuple items (an array of schemas) are not supported`;
  if (items !== undefined) {
    const problem = checkGeminiSchema(items, `${path}.items`);
    if (problem) return problem;
  }
  if (properties !== undefined) {
    if (!isObject(properties)) return `Invalid value at '${path}.properties': expected a map of schemas`;
    if (String(type).toUpperCase() === "OBJECT" && Object.keys(properties).length === 0) {
      return `${path}.properties: should be non-empty for OBJECT type`;
    }
    for (const [name, property] of Object.entries(properties)) {
      const problem = checkGeminiSchema(property, `${path}.properties[${JSON.stringify(name)}]`);
      if (problem) return problem;
    }
  }
  if (anyOf !== undefined) {
    if (!Array.isArray(anyOf)) return `Invalid value at '${path}.anyOf': expected a list of schemas`;
    for (const [index, option] of anyOf.entries()) {
      const problem = checkGeminiSchema(option, `${path}.anyOf[${index}]`);
      if (problem) return problem;
    }
  }
  return undefined;
}

const isString = (value: unknown): value is string => typeof value === "string";

/** A Gemini function declaration's parameters: `parameters` (the subset) xor `parametersJsonSchema`. */
export function checkGeminiParameters(declaration: Record<string, unknown>, path: string): Problem {
  const hasParameters = declaration.parameters !== undefined;
  const hasJsonSchema = declaration.parametersJsonSchema !== undefined;
  if (hasParameters && hasJsonSchema) {
    return `${path}: parameters and parametersJsonSchema are mutually exclusive; set only one`;
  }
  if (hasParameters) return checkGeminiSchema(declaration.parameters, `${path}.parameters`);
  if (hasJsonSchema) return checkObjectSchema(declaration.parametersJsonSchema, `${path}.parametersJsonSchema`);
  return undefined;
}
