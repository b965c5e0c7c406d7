// A tool's name that wraps only after its separators (`.`, `_`, `/`, `-`), never mid-word: each
// separator is followed by a <wbr> break opportunity, and the text itself never breaks anywhere else
// (`overflow-wrap: normal`, `word-break: keep-all`). A single part wider than the panel is clipped
// rather than widening the page (the row's title shows it whole).
import { Fragment } from "react";

/** The name cut after each separator: "fs.read_file" → ["fs.", "read_", "file"]. */
export function splitAtSeparators(name: string): string[] {
  return name.match(/[^._/-]*(?:[._/-]+|$)/g)?.filter((part) => part !== "") ?? [name];
}

export function ToolName({ name, className = "" }: { name: string; className?: string }) {
  const parts = splitAtSeparators(name);
  return (
    <span
      className={`inline-block max-w-full overflow-hidden [overflow-wrap:normal] [word-break:keep-all] ${className}`}
    >
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
