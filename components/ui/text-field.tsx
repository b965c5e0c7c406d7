// The fields every form shares: one look (`inputClass`) and, for the common case, a labelled field
// whose label text sits above the control — a text input (TextField), a multi-line text
// (TextAreaField) or a choice (SelectField). Pass any other props of the control through.
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

export const inputClass = "rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm dark:border-zinc-700";

type Controlled = { label: string; value: string; onValueChange: (value: string) => void };

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      {children}
    </label>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> & Controlled;

export function TextField({ label, value, onValueChange, className = "", ...props }: InputProps) {
  return (
    <Field label={label}>
      <input
        {...props}
        className={`${inputClass} ${className}`}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
    </Field>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange" | "value"> & Controlled;

export function TextAreaField({ label, value, onValueChange, className = "", ...props }: TextAreaProps) {
  return (
    <Field label={label}>
      <textarea
        {...props}
        className={`${inputClass} ${className}`}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
    </Field>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange" | "value"> & Controlled;

export function SelectField({ label, value, onValueChange, className = "", children, ...props }: SelectProps) {
  return (
    <Field label={label}>
      <select
        {...props}
        className={`${inputClass} ${className}`}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      >
        {children}
      </select>
    </Field>
  );
}
