// The shared tool-declaration rules: name patterns per provider, unique names, object schemas with
// resolvable acyclic refs, and Gemini's OpenAPI subset for `parameters` vs `parametersJsonSchema`.
import { describe, expect, it } from "vitest";

import {
  checkGeminiParameters,
  checkGeminiSchema,
  checkObjectSchema,
  checkToolNames,
  GEMINI_TOOL_NAME,
  OPENAI_TOOL_NAME,
} from "./validate-tools.ts";

const named = (...names: unknown[]) => names.map((name, index) => ({ path: `tools.${index}.name`, name }));

describe("tool names", () => {
  it.each([
    ["mcp_fixture_echo", OPENAI_TOOL_NAME, true],
    ["9-lives", OPENAI_TOOL_NAME, true],
    ["a".repeat(64), OPENAI_TOOL_NAME, true],
    ["a".repeat(65), OPENAI_TOOL_NAME, false],
    ["fixture.echo", OPENAI_TOOL_NAME, false],
    ["files/read", OPENAI_TOOL_NAME, false],
    ["", OPENAI_TOOL_NAME, false],
    ["fixture.echo:v2", GEMINI_TOOL_NAME, true],
    ["_private", GEMINI_TOOL_NAME, true],
    ["9-lives", GEMINI_TOOL_NAME, false],
    ["-dash", GEMINI_TOOL_NAME, false],
    ["a".repeat(65), GEMINI_TOOL_NAME, false],
  ])("%s against %s → valid %s", (name, pattern, isValid) => {
    expect(checkToolNames(named(name), pattern) === undefined).toBe(isValid);
  });

  it("refuses a duplicate and a non-string name, naming the path", () => {
    expect(checkToolNames(named("a", "b", "a"), OPENAI_TOOL_NAME)).toMatch(/tools\.2\.name: tool names must be unique/);
    expect(checkToolNames(named(42), OPENAI_TOOL_NAME)).toMatch(/tools\.0\.name: String should match pattern/);
  });
});

describe("object schemas", () => {
  it("wants type object, and local refs that resolve without a cycle", () => {
    expect(checkObjectSchema({ type: "object" }, "p")).toBeUndefined();
    expect(checkObjectSchema({ type: "string" }, "p")).toMatch(/p\.type: Input should be 'object'/);
    expect(checkObjectSchema({ properties: {} }, "p")).toMatch(/Input should be 'object'/);
    expect(checkObjectSchema(undefined, "p")).toMatch(/must be a JSON Schema object/);
    const defs = { $defs: { s: { type: "string" } } };
    expect(
      checkObjectSchema({ type: "object", ...defs, properties: { a: { $ref: "#/$defs/s" } } }, "p"),
    ).toBeUndefined();
    expect(checkObjectSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, "p")).toMatch(
      /cannot resolve '#\/\$defs\/missing'/,
    );
    const node = { type: "object", properties: { next: { $ref: "#/$defs/node" } } };
    expect(
      checkObjectSchema({ type: "object", $defs: { node }, properties: { n: { $ref: "#/$defs/node" } } }, "p"),
    ).toMatch(/cyclic reference/);
  });
});

describe("Gemini parameters", () => {
  const ok = {
    type: "object",
    properties: {
      q: { type: "string", description: "query", nullable: true },
      n: { type: "INTEGER", minimum: 1, maximum: 5 },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
      either: { anyOf: [{ type: "string" }, { type: "number" }] },
    },
    required: ["q"],
  };

  it("accepts the OpenAPI subset", () => {
    expect(checkGeminiSchema(ok, "parameters")).toBeUndefined();
  });

  it.each([
    [{ ...ok, $schema: "x" }, /Unknown name "\$schema"/],
    [{ ...ok, additionalProperties: false }, /Unknown name "additionalProperties"/],
    [{ type: "object", properties: { a: { $ref: "#/$defs/a" } } }, /Unknown name "\$ref"/],
    [{ ...ok, $defs: {} }, /Unknown name "\$defs"/],
    [{ type: "object", properties: { a: { const: "x" } } }, /Unknown name "const"/],
    [{ type: "object", properties: { a: { type: "number", exclusiveMinimum: 0 } } }, /Unknown name "exclusiveMinimum"/],
    [{ type: "object", properties: { a: { type: ["string", "null"] } } }, /'parameters\.properties\["a"\]\.type'/],
    [{ type: "object", properties: { a: { type: "null" } } }, /\.type'/],
    [{ type: "object", properties: { a: { type: "array", items: [{ type: "string" }] } } }, /tuple items/],
    [{ type: "object", properties: { a: { type: "integer", enum: [1, 2] } } }, /enum values must be strings/],
    [{ type: "object", properties: {} }, /should be non-empty for OBJECT type/],
  ])("refuses %j", (schema, message) => {
    expect(checkGeminiSchema(schema, "parameters")).toMatch(message);
  });

  it("takes parametersJsonSchema as plain JSON Schema, but never both fields", () => {
    const jsonSchema = { type: "object", additionalProperties: false, properties: { a: { type: ["string", "null"] } } };
    expect(checkGeminiParameters({ parametersJsonSchema: jsonSchema }, "d")).toBeUndefined();
    expect(checkGeminiParameters({ parametersJsonSchema: { type: "string" } }, "d")).toMatch(
      /Input should be 'object'/,
    );
    expect(checkGeminiParameters({ parameters: ok, parametersJsonSchema: jsonSchema }, "d")).toMatch(
      /mutually exclusive/,
    );
    expect(checkGeminiParameters({ parameters: jsonSchema }, "d")).toMatch(/Unknown name "additionalProperties"/);
    expect(checkGeminiParameters({}, "d")).toBeUndefined();
  });
});
