import { describe, expect, it } from "vitest";

import { choiceValue, listModelGroups, type ModelSourceView } from "./model-options.ts";

const sources: ModelSourceView[] = [
  {
    key: "server:openai",
    provider: "openai",
    accountId: null,
    name: "OpenAI",
    detail: null,
    models: ["gpt-5.1", "gpt-5-mini"],
    needsReconnect: false,
  },
  {
    key: "account:a1",
    provider: "openai-compatible",
    accountId: "a1",
    name: "Home GPU",
    detail: "http://gpu.lan:11434/v1",
    models: ["qwen2.5-coder", "llama3.3"],
    needsReconnect: true,
  },
];

describe("listModelGroups", () => {
  it("lists every source's models, grouped, when the search is empty", () => {
    const groups = listModelGroups(sources, "  ");
    expect(groups.map((group) => group.label)).toEqual([
      "OpenAI",
      "Home GPU · http://gpu.lan:11434/v1 (reconnect needed)",
    ]);
    expect(groups[0]!.options.map((option) => option.value)).toEqual(["openai:gpt-5.1", "openai:gpt-5-mini"]);
    expect(groups[1]!.options[0]!.value).toBe("account:a1:qwen2.5-coder");
  });

  it("keeps the models whose name or group match every word, dropping empty groups", () => {
    expect(listModelGroups(sources, "MINI").map((group) => group.options.map((o) => o.choice.model))).toEqual([
      ["gpt-5-mini"],
    ]);
    expect(listModelGroups(sources, "home llama").flatMap((group) => group.options.map((o) => o.value))).toEqual([
      "account:a1:llama3.3",
    ]);
    expect(listModelGroups(sources, "nothing-like-this")).toEqual([]);
  });

  it("names server-wide models by provider and account models by account", () => {
    expect(choiceValue({ provider: "google", model: "gemini-2.5-pro" })).toBe("google:gemini-2.5-pro");
    expect(choiceValue({ provider: "openai", model: "gpt-5.1", accountId: "x" })).toBe("account:x:gpt-5.1");
  });
});
