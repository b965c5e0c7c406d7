"use client";
// The two "add" forms of Settings → Providers: an API key for Anthropic / OpenAI / Google, and an
// OpenAI-compatible endpoint (base URL, optional key). Keys are typed into password fields and
// never shown again once saved.
import { useState, type FormEvent } from "react";

import { FormActions } from "@/components/ui/form-actions.tsx";
import { SelectField, TextField } from "@/components/ui/text-field.tsx";

export type ApiKeyFormValue = { provider: "anthropic" | "openai" | "google"; label?: string; apiKey: string };
export type EndpointFormValue = { label: string; baseUrl: string; apiKey?: string; nativeTools: boolean };

type FormProps<T> = { isPending: boolean; onSubmit: (value: T) => void; onCancel: () => void };

export function ApiKeyForm({ isPending, onSubmit, onCancel }: FormProps<ApiKeyFormValue>) {
  const [provider, setProvider] = useState<ApiKeyFormValue["provider"]>("anthropic");
  const [label, setLabel] = useState("");
  const [apiKey, setApiKey] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit({ provider, apiKey: apiKey.trim(), ...(label.trim() && { label: label.trim() }) });
  }
  return (
    <form onSubmit={submit} aria-label="Add an API key" className="flex flex-col gap-3">
      <SelectField
        label="Provider"
        value={provider}
        onValueChange={(value) => setProvider(value as ApiKeyFormValue["provider"])}
      >
        <option value="anthropic">Anthropic (Claude)</option>
        <option value="openai">OpenAI</option>
        <option value="google">Google Gemini</option>
      </SelectField>
      <TextField label="Name (optional)" value={label} onValueChange={setLabel} placeholder="Work key" />
      <TextField label="API key" type="password" autoComplete="off" value={apiKey} onValueChange={setApiKey} required />
      <FormActions submitLabel="Save key" isPending={isPending} onCancel={onCancel} />
    </form>
  );
}

export function EndpointForm({ isPending, onSubmit, onCancel }: FormProps<EndpointFormValue>) {
  const [label, setLabel] = useState("");
  const [baseUrl, setBaseUrl] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [nativeTools, setNativeTools] = useState(true);
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit({
      label: label.trim(),
      baseUrl: baseUrl.trim(),
      nativeTools,
      ...(apiKey.trim() && { apiKey: apiKey.trim() }),
    });
  }
  return (
    <form onSubmit={submit} aria-label="Add an OpenAI-compatible endpoint" className="flex flex-col gap-3">
      <TextField label="Name" value={label} onValueChange={setLabel} placeholder="Ollama" required />
      <TextField
        label="Base URL"
        value={baseUrl}
        onValueChange={setBaseUrl}
        placeholder="http://127.0.0.1:11434/v1"
        required
      />
      <TextField
        label="API key (optional)"
        type="password"
        autoComplete="off"
        value={apiKey}
        onValueChange={setApiKey}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={nativeTools} onChange={(e) => setNativeTools(e.target.checked)} />
        Its models call tools natively (untick for models without tool calling: tools are described as XML)
      </label>
      <FormActions
        submitLabel={isPending ? "Reading its models…" : "Add endpoint"}
        isPending={isPending}
        onCancel={onCancel}
      />
    </form>
  );
}
