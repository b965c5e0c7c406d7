// The memoised tool declarations: one record per snapshot tool array and schema form, a fresh one for
// any other array (another revision, another session), the same result as building from scratch,
// and never one session's tools in another's request.
import type { Tool } from "ai";
import { describe, expect, it } from "vitest";

import type { ToolSpec } from "../core/canonical.ts";
import { renderRequest } from "./render.ts";
import { toGeminiSchema } from "./google/schema.ts";
import { declareTools, providerSchema } from "./tool-declarations.ts";

const spec = (server: string, name: string, inputSchema: ToolSpec["inputSchema"]): ToolSpec => ({
  canonicalName: `${server}.${name}`,
  exposedName: `${server}_${name}`,
  description: `${name} on ${server}`,
  inputSchema,
});

const searchSchema = {
  type: "object",
  properties: { query: { type: "string" }, state: { type: ["string", "null"], enum: ["open", "closed"] } },
  required: ["query"],
};
const untypedSchema = { properties: { id: { type: "integer" } } };

const sessionA = () => [spec("github", "search", searchSchema), spec("github", "get", untypedSchema)];
const sessionB = () => [spec("linear", "search", searchSchema)];

/** What a declaration sends: its description and its JSON schema. */
const wire = (tools: Readonly<Record<string, Tool>>) =>
  Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      { description: tool.description, schema: (tool.inputSchema as { jsonSchema: unknown }).jsonSchema },
    ]),
  );

describe("declareTools", () => {
  it("returns the same frozen record for the same tool array and provider form", () => {
    const tools = sessionA();
    const first = declareTools(tools, "anthropic");
    expect(declareTools(tools, "anthropic")).toBe(first);
    expect(declareTools(tools, "openai")).toBe(first); // anthropic and openai share the JSON Schema form
    expect(declareTools(tools, "google")).not.toBe(first);
    expect(Object.isFrozen(first.tools)).toBe(true);
    expect(Object.isFrozen(first.names)).toBe(true);
    expect(first.names).toEqual(["github_search", "github_get"]);
  });

  it("builds a fresh record for another array, even with equal content, and it says the same", () => {
    const one = declareTools(sessionA(), "google");
    const other = declareTools(sessionA(), "google");
    expect(other).not.toBe(one);
    expect(wire(other.tools)).toEqual(wire(one.tools));
  });

  it("declares exactly the array's own tools: another session's never show up", () => {
    const a = sessionA();
    const b = sessionB();
    for (const provider of ["anthropic", "openai", "google"] as const) {
      declareTools(a, provider);
      expect(declareTools(b, provider).names).toEqual(["linear_search"]);
      expect(Object.keys(declareTools(b, provider).tools)).toEqual(["linear_search"]);
      expect(declareTools(a, provider).names).toEqual(["github_search", "github_get"]);
    }
  });

  it("follows a new revision: a tool switched off or a changed description is a new array", () => {
    const revision1 = sessionA();
    const revision2 = [revision1[0]!, { ...revision1[1]!, description: "get, described anew" }];
    const revision3 = [revision1[0]!];
    declareTools(revision1, "anthropic");
    expect(declareTools(revision2, "anthropic").tools.github_get!.description).toBe("get, described anew");
    expect(declareTools(revision3, "anthropic").names).toEqual(["github_search"]);
    expect(declareTools(revision1, "anthropic").tools.github_get!.description).toBe("get on github");
  });

  it("converts each schema object once per form, in the provider's form", () => {
    const gemini = providerSchema(searchSchema, "google");
    expect(providerSchema(searchSchema, "google")).toBe(gemini);
    expect(gemini.jsonSchema).toEqual(toGeminiSchema(searchSchema));
    expect(providerSchema(searchSchema, "anthropic").jsonSchema).toBe(searchSchema);
    expect(providerSchema(untypedSchema, "openai").jsonSchema).toEqual({ ...untypedSchema, type: "object" });
    // A schema with the same content but another object is converted on its own (and equally).
    const copy = structuredClone(searchSchema);
    expect(providerSchema(copy, "google")).not.toBe(gemini);
    expect(providerSchema(copy, "google").jsonSchema).toEqual(gemini.jsonSchema);
  });
});

describe("renderRequest with memoised declarations", () => {
  const transcript = {
    messages: [{ id: "m1", role: "user" as const, parts: [{ type: "text" as const, text: "hi" }] }],
  };
  const render = (tools: ToolSpec[], provider: "anthropic" | "google") =>
    renderRequest({ provider, modelId: "m", transcript, snapshot: { revision: 1, tools }, isFollowUp: false });

  it("gives each request its own toolNames and the snapshot's tools, revision after revision", () => {
    const a = sessionA();
    const first = render(a, "google");
    first.toolNames.push("mutated by a caller");
    const again = render(a, "google");
    expect(again.toolNames).toEqual(["github_search", "github_get"]);
    expect(again.tools).toBe(first.tools);
    const b = render(sessionB(), "google");
    expect(Object.keys(b.tools)).toEqual(["linear_search"]);
    expect(b.options.tools).toBe(b.tools);
  });

  it("refuses a caller's write to the shared declarations instead of leaking it to the next request", () => {
    const call = render(sessionA(), "anthropic");
    expect(() => {
      (call.tools as Record<string, unknown>).extra = {};
    }).toThrow(TypeError);
    expect(Object.keys(render(sessionA(), "anthropic").tools)).toEqual(["github_search", "github_get"]);
  });
});
