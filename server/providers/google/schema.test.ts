// Gemini tool schemas: every converted node uses only the OpenAPI-subset keywords with a scalar type,
// with $ref, const, type arrays, oneOf, allOf and tuples mapped rather than dropped.
import { describe, expect, it } from "vitest";

import type { JsonValue } from "../../core/canonical.ts";
import { GEMINI_SCHEMA_FIELDS, toGeminiSchema } from "./schema.ts";

const allowedKeywords = new Set(GEMINI_SCHEMA_FIELDS);

/** Every schema node (not property maps) uses only OpenAPI-subset keywords and a scalar type. */
function expectOpenApiSubset(schema: JsonValue, path = "$"): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new Error(`${path} is not a schema`);
  for (const [key, value] of Object.entries(schema)) {
    expect(allowedKeywords, `${path}.${key}`).toContain(key);
    if (key === "type") expect(typeof value, `${path}.type`).toBe("string");
    if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, child] of Object.entries(value)) expectOpenApiSubset(child, `${path}.properties.${name}`);
    }
    if (key === "items") expectOpenApiSubset(value, `${path}.items`);
    if (key === "anyOf" && Array.isArray(value))
      value.forEach((child, i) => expectOpenApiSubset(child, `${path}.anyOf[${i}]`));
  }
}

describe("toGeminiSchema", () => {
  it("drops $schema, additionalProperties, patternProperties, examples and unknown keywords", () => {
    const converted = toGeminiSchema({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: {
        q: { type: "string", examples: ["x"], format: "uri", "x-custom": true, minLength: 1 },
        tags: { type: "object", patternProperties: { "^x": { type: "string" } } },
      },
      required: ["q", "missing"],
    });
    expect(converted).toEqual({
      type: "object",
      properties: { q: { type: "string", minLength: 1 }, tags: { type: "object" } },
      required: ["q"],
    });
    expectOpenApiSubset(converted);
  });

  it("inlines $ref from $defs and definitions, keeping sibling keywords", () => {
    const converted = toGeminiSchema({
      type: "object",
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      definitions: { unit: { type: "string", enum: ["m", "km"] } },
      properties: {
        from: { $ref: "#/$defs/point", description: "start" },
        unit: { $ref: "#/definitions/unit" },
      },
    });
    expect(converted.properties).toEqual({
      from: { type: "object", description: "start", properties: { x: { type: "number" } }, required: ["x"] },
      unit: { type: "string", enum: ["m", "km"] },
    });
    expectOpenApiSubset(converted);
  });

  it("cuts a recursive $ref to a plain object instead of looping", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: { tree: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    });
    expect(converted.properties).toEqual({
      tree: { type: "object", properties: { children: { type: "array", items: { type: "object" } } } },
    });
  });

  it("maps type arrays to nullable or anyOf", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: {
        maybe: { type: ["string", "null"] },
        either: { type: ["string", "number"] },
        both: { type: ["integer", "boolean", "null"] },
      },
    });
    expect(converted.properties).toEqual({
      maybe: { type: "string", nullable: true },
      either: { anyOf: [{ type: "string" }, { type: "number" }] },
      both: { nullable: true, anyOf: [{ type: "integer" }, { type: "boolean" }] },
    });
    expectOpenApiSubset(converted);
  });

  it("turns const into a one-value enum and oneOf/anyOf-with-null into anyOf/nullable", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: {
        kind: { const: "circle" },
        shape: { oneOf: [{ type: "string" }, { type: "integer" }] },
        optional: { anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] },
      },
    });
    expect(converted.properties).toEqual({
      kind: { type: "string", enum: ["circle"] },
      shape: { anyOf: [{ type: "string" }, { type: "integer" }] },
      optional: { type: "string", maxLength: 3, nullable: true },
    });
    expectOpenApiSubset(converted);
  });

  it("moves non-string enums into the description and keeps the type", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: { level: { type: "integer", enum: [1, 2, 3], description: "Level." } },
    });
    expect(converted.properties).toEqual({
      level: { type: "integer", description: "Level. Allowed values: 1, 2, 3." },
    });
  });

  it("merges allOf, converts tuples and exclusive bounds", () => {
    const converted = toGeminiSchema({
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "number", exclusiveMinimum: 0 } }, required: ["b"] },
      ],
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
    });
    expect(converted).toEqual({
      type: "object",
      properties: {
        pair: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
        a: { type: "string" },
        b: { type: "number", minimum: 0 },
      },
      required: ["a", "b"],
    });
    expectOpenApiSubset(converted);
  });

  it("always returns an object root, even for an empty schema", () => {
    expect(toGeminiSchema({})).toEqual({ type: "object" });
    expect(toGeminiSchema({ type: "object", properties: {} })).toEqual({ type: "object" });
  });
});
