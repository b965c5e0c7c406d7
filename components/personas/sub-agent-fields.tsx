"use client";
// The sub-agent part of the persona form: whether the persona is offered to chats as the tool
// `persona.<slug>`, and how it then runs: its own model (or the calling chat's), its step cap and
// timeout (empty: the defaults), and whether it only gets tools their servers mark read-only.
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";

import { choiceValue, type ModelChoice } from "@/components/chat/model-options.ts";
import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Switch } from "@/components/ui/switch.tsx";
import { SelectField, TextField } from "@/components/ui/text-field.tsx";

/** The form's text state of the settings; `isOn` false: not a sub-agent. */
export type SubAgentDraft = {
  isOn: boolean;
  model: ModelChoice | null;
  maxSteps: string;
  timeoutSec: string;
  isReadOnly: boolean;
};

export type SubAgentValue = {
  model: { provider: ModelChoice["provider"]; model: string; accountId: string | null } | null;
  maxSteps: number | null;
  timeoutSec: number | null;
  isReadOnly: boolean;
} | null;

export function draftOf(value: SubAgentValue | undefined): SubAgentDraft {
  return {
    isOn: !!value,
    model: value?.model ?? null,
    maxSteps: value?.maxSteps ? String(value.maxSteps) : "",
    timeoutSec: value?.timeoutSec ? String(value.timeoutSec) : "",
    isReadOnly: value?.isReadOnly ?? false,
  };
}

function numberOrNull(text: string): number | null {
  const value = Number.parseInt(text.trim(), 10);
  return Number.isFinite(value) ? value : null;
}

export function valueOf(draft: SubAgentDraft): SubAgentValue {
  if (!draft.isOn) return null;
  const { model } = draft;
  return {
    model: model ? { provider: model.provider, model: model.model, accountId: model.accountId ?? null } : null,
    maxSteps: numberOrNull(draft.maxSteps),
    timeoutSec: numberOrNull(draft.timeoutSec),
    isReadOnly: draft.isReadOnly,
  };
}

const CHAT_MODEL = "";

export function SubAgentFields({
  draft,
  onChange,
}: {
  draft: SubAgentDraft;
  onChange: (draft: SubAgentDraft) => void;
}) {
  const trpc = useTRPC();
  const sources = useQuery({ ...trpc.chat.providers.queryOptions(), enabled: draft.isOn });
  const switchId = useId();
  const readOnlyId = useId();
  const options = new Map(
    (sources.data ?? []).flatMap((source) =>
      source.models.map((model) => {
        const choice: ModelChoice = { provider: source.provider, model, accountId: source.accountId };
        return [choiceValue(choice), { choice, label: `${source.name} · ${model}` }] as const;
      }),
    ),
  );
  const current = draft.model ? choiceValue(draft.model) : CHAT_MODEL;
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex items-center gap-2 text-sm">
        <Switch id={switchId} checked={draft.isOn} onCheckedChange={(isOn) => onChange({ ...draft, isOn })} />
        <label htmlFor={switchId}>Available as a sub-agent</label>
      </div>
      {draft.isOn && (
        <>
          <p className="text-xs text-zinc-500">
            Every chat can consult this persona as the tool <code>persona.&lt;name&gt;</code>: it works on the task with
            its own model and only the chat&apos;s tools its allowlist admits, and answers with its final text.
          </p>
          <SelectField
            label="Sub-agent model"
            value={current}
            onValueChange={(value) => onChange({ ...draft, model: options.get(value)?.choice ?? null })}
          >
            <option value={CHAT_MODEL}>The calling chat&apos;s model</option>
            {draft.model && !options.has(current) && <option value={current}>{draft.model.model}</option>}
            {[...options.entries()].map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <div className="flex flex-wrap gap-3">
            <TextField
              label="Step cap"
              type="number"
              min={1}
              max={50}
              placeholder="8"
              value={draft.maxSteps}
              onValueChange={(maxSteps) => onChange({ ...draft, maxSteps })}
            />
            <TextField
              label="Timeout (seconds)"
              type="number"
              min={5}
              max={3600}
              placeholder="300"
              value={draft.timeoutSec}
              onValueChange={(timeoutSec) => onChange({ ...draft, timeoutSec })}
            />
          </div>
          <div className="flex items-center gap-2 text-sm">
            <Switch
              id={readOnlyId}
              checked={draft.isReadOnly}
              onCheckedChange={(isReadOnly) => onChange({ ...draft, isReadOnly })}
            />
            <label htmlFor={readOnlyId}>Read-only tools only</label>
          </div>
        </>
      )}
    </fieldset>
  );
}

/** The one line a persona's entry shows when it is a sub-agent. */
export function SubAgentSummary({ value }: { value: NonNullable<SubAgentValue> }) {
  return (
    <p className="text-xs text-zinc-500" data-testid="persona-sub-agent">
      Sub-agent on {value.model ? value.model.model : "the chat's model"}
      {value.isReadOnly ? " · read-only tools" : ""}
    </p>
  );
}
