"use client";
// Add or edit a remote MCP connector: name, transport, URL and headers. Saved header values are
// never shown again; leaving one untouched keeps it, typing a new value replaces it.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button.tsx";
import { FormActions } from "@/components/ui/form-actions.tsx";
import { inputClass, SelectField, TextField } from "@/components/ui/text-field.tsx";

export type ConnectorFormValue = {
  name: string;
  transport: "streamable-http" | "sse";
  url: string;
  headers: Record<string, string | null>;
};

type HeaderRow = { name: string; value: string; isSaved: boolean };

type Props = {
  initial?: { name: string; transport: string; url: string | null; headerNames: string[] };
  submitLabel: string;
  isPending: boolean;
  onSubmit: (value: ConnectorFormValue) => void;
  onCancel?: () => void;
};

export function ConnectorForm({ initial, submitLabel, isPending, onSubmit, onCancel }: Props) {
  const [name, setName] = useState(initial?.name ?? "");
  const [transport, setTransport] = useState<ConnectorFormValue["transport"]>(
    initial?.transport === "sse" ? "sse" : "streamable-http",
  );
  const [url, setUrl] = useState(initial?.url ?? "");
  const [headers, setHeaders] = useState<HeaderRow[]>(
    (initial?.headerNames ?? []).map((header) => ({ name: header, value: "", isSaved: true })),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const entries = headers
      .filter((row) => row.name.trim())
      .map((row) => [row.name.trim(), row.isSaved && row.value === "" ? null : row.value] as const);
    onSubmit({ name: name.trim(), transport, url: url.trim(), headers: Object.fromEntries(entries) });
  }

  const update = (index: number, patch: Partial<HeaderRow>) =>
    setHeaders((rows) => rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <TextField label="Name" value={name} onValueChange={setName} placeholder="github" required />
      <SelectField
        label="Transport"
        value={transport}
        onValueChange={(value) => setTransport(value as ConnectorFormValue["transport"])}
      >
        <option value="streamable-http">Streamable HTTP</option>
        <option value="sse">SSE (legacy)</option>
      </SelectField>
      <TextField label="URL" value={url} onValueChange={setUrl} placeholder="https://mcp.example.com/mcp" required />
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1">Headers (stored encrypted, never shown again)</legend>
        {headers.map((row, index) => (
          <div key={index} className="flex gap-2">
            <input
              aria-label="Header name"
              className={`${inputClass} w-40`}
              value={row.name}
              disabled={row.isSaved}
              onChange={(e) => update(index, { name: e.target.value })}
            />
            <input
              aria-label={`Value of ${row.name || "header"}`}
              type="password"
              className={`${inputClass} flex-1`}
              value={row.value}
              placeholder={row.isSaved ? "saved — type to replace" : "value"}
              onChange={(e) => update(index, { value: e.target.value })}
            />
            <Button
              type="button"
              variant="ghost"
              onClick={() => setHeaders((rows) => rows.filter((_, i) => i !== index))}
            >
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button
            type="button"
            variant="secondary"
            onClick={() => setHeaders((rows) => [...rows, { name: "", value: "", isSaved: false }])}
          >
            Add header
          </Button>
        </div>
      </fieldset>
      <FormActions submitLabel={submitLabel} isPending={isPending} onCancel={onCancel} />
    </form>
  );
}
