// What the model picker lists: one group per model source (a server-wide provider or one of the
// user's accounts), each with its models, narrowed by the search box. A model matches when the
// search's words all occur in its name, its group's name or detail (case-insensitive). Server-wide
// models keep the plain `provider:model` value; account models are `account:<id>:model`.
export type ModelChoice = {
  provider: "anthropic" | "openai" | "google" | "openai-compatible";
  model: string;
  accountId?: string | null;
};

export type ModelSourceView = {
  key: string;
  provider: ModelChoice["provider"];
  accountId: string | null;
  name: string;
  detail: string | null;
  models: string[];
  needsReconnect: boolean;
};

export type ModelOption = { value: string; choice: ModelChoice };
export type ModelGroup = { key: string; label: string; options: ModelOption[] };

export function choiceValue(choice: ModelChoice): string {
  return choice.accountId ? `account:${choice.accountId}:${choice.model}` : `${choice.provider}:${choice.model}`;
}

export function groupLabel(source: ModelSourceView): string {
  return `${source.name}${source.detail ? ` · ${source.detail}` : ""}${source.needsReconnect ? " (reconnect needed)" : ""}`;
}

export function listModelGroups(sources: readonly ModelSourceView[], search: string): ModelGroup[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return sources.flatMap((source) => {
    const label = groupLabel(source);
    const options = source.models
      .filter((model) => {
        const haystack = `${model} ${label}`.toLowerCase();
        return words.every((word) => haystack.includes(word));
      })
      .map((model) => {
        const choice: ModelChoice = { provider: source.provider, model, accountId: source.accountId };
        return { value: choiceValue(choice), choice };
      });
    return options.length > 0 ? [{ key: source.key, label, options }] : [];
  });
}
