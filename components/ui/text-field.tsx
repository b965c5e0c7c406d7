// The text input every form shares: one look (`inputClass`) and, for the common case, a labelled
// field whose label text sits above the input. Pass any <input> props through.
import type { InputHTMLAttributes } from "react";

export const inputClass = "rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm dark:border-zinc-700";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
};

export function TextField({ label, value, onValueChange, className = "", ...props }: Props) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <input
        {...props}
        className={`${inputClass} ${className}`}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
    </label>
  );
}
