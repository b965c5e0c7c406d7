// The composer's memo: the same inputs give back the session's last composition; any input that
// differs (a binding's switch, policy, fingerprint, the allowlist, built-ins, sub-agents, a list's
// content) composes anew; and one session's composition is never handed to another.
import { describe, expect, it } from "vitest";

import { binding, builtins, source } from "./compose-fixtures.ts";
import type { RegistryState } from "./revision-store.ts";
import { RevisionComposer } from "./revision-composer.ts";

const state = (patch: Partial<RegistryState> = {}): RegistryState => ({
  revision: 3,
  allowlist: null,
  bindings: [binding("github")],
  disabledBuiltins: [],
  subAgents: [],
  ...patch,
});
const lists = (tools = ["search", "get"]) => new Map([["github", source("github", tools)]]);
const names = (composed: { tools: { canonicalName: string }[] }) => composed.tools.map((tool) => tool.canonicalName);

describe("RevisionComposer", () => {
  it("gives back the session's last composition for equal inputs, even from new objects", () => {
    const composer = new RevisionComposer(builtins);
    const first = composer.compose("s1", state(), lists());
    expect(composer.compose("s1", state({ revision: 4 }), lists())).toBe(first);
    expect(names(first)).toEqual(["builtin.current_time", "github.search", "github.get"]);
  });

  it.each<[string, Partial<RegistryState>, string[]?]>([
    ["a tool switched off", { bindings: [binding("github", { disabledTools: ["get"] })] }],
    ["a tool's policy", { bindings: [binding("github", { toolPolicies: { get: "ask" } })] }],
    ["the connector's policy", { bindings: [binding("github", { policy: "ask" })] }],
    ["the connector switched off", { bindings: [binding("github", { enabled: false })] }],
    ["the connector's row", { bindings: [binding("github", { fingerprint: "github-v2" })] }],
    ["the persona's allowlist", { allowlist: ["github.search"] }],
    ["a built-in switched off", { disabledBuiltins: ["current_time"] }],
    ["a sub-agent", { subAgents: [{ id: "p1", name: "Scout", systemPrompt: "Look." }] }],
    ["the list's content", {}, ["search", "get", "create"]],
  ])("composes anew when %s differs", (_what, patch, tools) => {
    const composer = new RevisionComposer(builtins);
    const first = composer.compose("s1", state(), lists());
    const next = composer.compose("s1", state(patch), lists(tools));
    expect(next).not.toBe(first);
    // A change of the row alone may compose the same tools; everything else shows in the manifest.
    if (!patch.bindings?.[0]?.fingerprint?.endsWith("v2")) expect(next.manifestJson).not.toBe(first.manifestJson);
    expect(composer.compose("s1", state(), lists())).not.toBe(next); // and back: anew again, equal to the first
    expect(composer.compose("s1", state(), lists()).manifestJson).toBe(first.manifestJson);
  });

  it("keeps each session's composition to itself", () => {
    const composer = new RevisionComposer(builtins);
    const mine = composer.compose("s1", state(), lists());
    const theirs = composer.compose("s2", state(), lists());
    expect(theirs).not.toBe(mine);
    expect(theirs.manifestJson).toBe(mine.manifestJson);
    const narrowed = composer.compose("s2", state({ allowlist: ["github.get"] }), lists());
    expect(names(narrowed)).toEqual(["github.get"]);
    expect(composer.compose("s1", state(), lists())).toBe(mine);
  });
});
