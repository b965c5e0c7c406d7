import { describe, expect, it } from "vitest";

import { composeTools } from "./compose-tools.ts";
import type { McpTool } from "./connection-types.ts";
import type { ListSource } from "./snapshot-manifest.ts";
import { personaSlug, slugPersonas, subAgentToolList } from "./sub-agent-tools.ts";
import { hashToolList } from "./tool-lists.ts";

const persona = (id: string, name: string) => ({ id, name, systemPrompt: `Prompt of ${name}.` });
const builtins: ListSource = {
  name: "builtin",
  list: hashToolList([{ name: "current_time", description: "time", inputSchema: { type: "object" } }]),
};

describe("sub-agent tools", () => {
  it("slug a persona's name into a tool name", () => {
    expect(personaSlug("Code Reviewer (strict)")).toBe("code_reviewer_strict");
    expect(personaSlug("  Ünïcode!! ")).toBe("n_code");
    expect(personaSlug("???")).toBe("persona");
    expect(personaSlug("x".repeat(90))).toHaveLength(40);
  });

  it("give clashing slugs _2, _3 in name order, whatever order the personas come in", () => {
    const personas = [persona("c", "Reviewer!"), persona("a", "Reviewer"), persona("b", "reviewer?")];
    const slugs = (list: typeof personas) => slugPersonas(list).map(({ slug, persona: p }) => `${p.id}:${slug}`);
    expect(slugs(personas)).toEqual(["a:reviewer", "c:reviewer_2", "b:reviewer_3"]);
    expect(slugs([...personas].reverse())).toEqual(slugs(personas));
  });

  it("are the persona connector's list: name and prompt in the description, input {task, context?}", () => {
    const { name, list } = subAgentToolList([persona("a", "Scout")]);
    expect(name).toBe("persona");
    const [tool] = list.value;
    expect(tool!.name).toBe("scout");
    expect(tool!.description).toContain('"Scout"');
    expect(tool!.description).toContain("Prompt of Scout.");
    expect(tool!.inputSchema).toMatchObject({ required: ["task"], properties: { task: {}, context: {} } });
  });

  it("are composed after the built-ins, allowed to run, and filtered by the chat persona's allowlist", () => {
    const subAgents = subAgentToolList([persona("a", "Scout")]);
    const all = composeTools(builtins, [], new Map(), null, [], subAgents);
    expect(all.map((tool) => [tool.canonicalName, tool.connectorId, tool.policy])).toEqual([
      ["builtin.current_time", "builtin", "allow"],
      ["persona.scout", "persona", "allow"],
    ]);
    expect(composeTools(builtins, [], new Map(), ["builtin.*"], [], subAgents)).toHaveLength(1);
  });

  it("carry a tool's read-only mark from its list into the snapshot", () => {
    const tools: McpTool[] = [
      { name: "read", description: "", inputSchema: { type: "object" }, readOnly: true },
      { name: "write", description: "", inputSchema: { type: "object" } },
    ];
    const lists = new Map([["fs", { name: "fs", list: hashToolList(tools) }]]);
    const binding = { connectorId: "fs", name: "fs", source: "user" as const, enabled: true, fingerprint: "fs" };
    const composed = composeTools(
      builtins,
      [{ ...binding, disabledTools: [], policy: "allow", toolPolicies: {} }],
      lists,
      null,
    );
    expect(composed.filter((tool) => tool.readOnly).map((tool) => tool.canonicalName)).toEqual(["fs.read"]);
  });
});
