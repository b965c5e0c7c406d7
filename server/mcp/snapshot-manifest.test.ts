import { describe, expect, it } from "vitest";

import type { McpTool } from "./connection-types.ts";
import type { RegistryTool } from "./registry-tool.ts";
import { buildManifest, buildSelections, expandSelections, type ListSource } from "./snapshot-manifest.ts";
import { HashedStore, hashToolList } from "./tool-lists.ts";

const list = (names: string[]): McpTool[] =>
  names.map((name) => ({ name, description: `Does ${name}.`, inputSchema: { type: "object", title: name } }));

function compose(id: string, source: ListSource, on: string[]): RegistryTool[] {
  return source.list.value
    .filter((tool) => on.includes(tool.name))
    .map((tool) => ({
      canonicalName: `${source.name}.${tool.name}`,
      exposedName: `${source.name}_${tool.name}`,
      description: tool.description,
      inputSchema: tool.inputSchema,
      connectorId: id,
      toolName: tool.name,
      policy: tool.name === "b" ? "ask" : "allow",
    }));
}

describe("hashToolList", () => {
  it("hashes equal lists equally and different lists differently, once per list object", () => {
    const first = list(["a", "b"]);
    expect(hashToolList(first)).toBe(hashToolList(first));
    expect(hashToolList(list(["a", "b"])).hash).toBe(hashToolList(first).hash);
    expect(hashToolList(list(["b", "a"])).hash).not.toBe(hashToolList(first).hash);
    const extra = first.map((tool) => ({ ...tool, annotations: { title: "ignored" } }));
    expect(hashToolList(extra).hash).toBe(hashToolList(first).hash); // normalised to name, description, schema
  });
});

describe("selections", () => {
  const github: ListSource = { name: "github", list: hashToolList(list(["a", "b", "c"])) };
  const linear: ListSource = { name: "linear", list: hashToolList(list(["a", "d"])) };
  const sources = new Map([
    ["gh", github],
    ["ln", linear],
  ]);

  it("round-trips a composed snapshot through its selections and lists, in order", () => {
    const tools = [...compose("gh", github, ["a", "b"]), ...compose("ln", linear, ["a", "d"])];
    const selections = buildSelections(tools, sources);
    expect(selections.map((selection) => selection.value.connectorId)).toEqual(["gh", "ln"]);
    expect(selections[0]!.value.tools).toEqual([
      { name: "a", exposedName: "github_a", policy: "allow" },
      { name: "b", exposedName: "github_b", policy: "ask" },
    ]);
    const lists = new Map([github, linear].map((source) => [source.list.hash, source.list.value]));
    const parsed = selections.map((selection) => JSON.parse(selection.json) as typeof selection.value);
    expect(expandSelections(parsed, lists)).toEqual(tools);
    expect(buildManifest(selections)).toEqual({ v: 2, selections: selections.map((selection) => selection.hash) });
  });

  it("gives a changed switch a new selection hash and leaves the other connector's alone", () => {
    const before = buildSelections([...compose("gh", github, ["a", "b"]), ...compose("ln", linear, ["a"])], sources);
    const after = buildSelections([...compose("gh", github, ["a"]), ...compose("ln", linear, ["a"])], sources);
    expect(after[0]!.hash).not.toBe(before[0]!.hash);
    expect(after[1]!.hash).toBe(before[1]!.hash);
  });

  it("refuses a selection naming a tool its list does not have", () => {
    const [selection] = buildSelections(compose("gh", github, ["a"]), sources);
    const wrong = {
      ...selection!.value,
      tools: [{ name: "zzz", exposedName: "github_zzz", policy: "allow" as const }],
    };
    expect(() => expandSelections([wrong], new Map([[github.list.hash, github.list.value]]))).toThrow(/zzz/);
  });
});

describe("HashedStore", () => {
  it("writes only what it does not know is stored, and reads each hash at most once", async () => {
    const fetched: string[][] = [];
    const store = new HashedStore<string>((hashes) => {
      fetched.push(hashes);
      return Promise.resolve(hashes.filter((hash) => hash !== "gone").map((hash) => ({ hash, value: `v-${hash}` })));
    });
    const item = (hash: string) => ({ hash, json: `"${hash}"`, value: hash });
    expect(JSON.parse(store.pendingRows([item("x"), item("y"), item("x")]))).toEqual([
      { hash: "x", value: "x" },
      { hash: "y", value: "y" },
    ]);
    store.remember("x", "x");
    expect(JSON.parse(store.pendingRows([item("x"), item("y")]))).toEqual([{ hash: "y", value: "y" }]);
    expect(await store.load(["x", "y"])).toEqual(
      new Map([
        ["x", "x"],
        ["y", "v-y"],
      ]),
    );
    expect(await store.load(["y"])).toEqual(new Map([["y", "v-y"]]));
    expect(fetched).toEqual([["y"]]);
    await expect(store.load(["gone"])).rejects.toThrow(/gone/);
  });
});
