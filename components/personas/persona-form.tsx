"use client";
// Add or edit a persona: a name, the system prompt its chats use, and the tool allowlist typed as
// comma-separated entries (`*`, `server.*` or `server.tool`; empty means no tools at all), and
// whether chats may consult it as a sub-agent (sub-agent-fields.tsx).
import { useId, useState, type FormEvent } from "react";

import { FormActions } from "@/components/ui/form-actions.tsx";
import { TextAreaField, TextField } from "@/components/ui/text-field.tsx";

import { draftOf, SubAgentFields, valueOf, type SubAgentValue } from "./sub-agent-fields.tsx";

export type PersonaFormValue = {
  name: string;
  systemPrompt: string;
  toolAllowlist: string[];
  subAgent?: SubAgentValue;
};

type Props = {
  initial?: PersonaFormValue;
  submitLabel: string;
  isPending: boolean;
  onSubmit: (value: PersonaFormValue) => void;
  onCancel?: () => void;
};

/** "a, b,,c " → ["a", "b", "c"] */
export function parseAllowlist(text: string): string[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export function PersonaForm({ initial, submitLabel, isPending, onSubmit, onCancel }: Props) {
  const [name, setName] = useState(initial?.name ?? "");
  const [systemPrompt, setSystemPrompt] = useState(initial?.systemPrompt ?? "");
  const [allowlist, setAllowlist] = useState(initial ? initial.toolAllowlist.join(", ") : "*");
  const [subAgent, setSubAgent] = useState(() => draftOf(initial?.subAgent));
  const hintId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit({
      name: name.trim(),
      systemPrompt: systemPrompt.trim(),
      toolAllowlist: parseAllowlist(allowlist),
      subAgent: valueOf(subAgent),
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <TextField label="Name" value={name} onValueChange={setName} placeholder="Reviewer" required />
      <TextAreaField
        label="System prompt"
        className="min-h-28"
        value={systemPrompt}
        onValueChange={setSystemPrompt}
        required
      />
      <div className="flex flex-col gap-1 text-sm">
        <TextField
          label="Tool allowlist"
          className="font-mono"
          value={allowlist}
          onValueChange={setAllowlist}
          placeholder="builtin.*, everything.get-sum"
          aria-describedby={hintId}
        />
        <p id={hintId} className="text-xs text-zinc-500">
          Comma-separated: <code>*</code> for every tool, <code>server.*</code> for all tools of one connector, or a
          tool name like <code>everything.get-sum</code>. Empty: no tools at all.
        </p>
      </div>
      <SubAgentFields draft={subAgent} onChange={setSubAgent} />
      <FormActions submitLabel={submitLabel} isPending={isPending} onCancel={onCancel} />
    </form>
  );
}
