// What the Tools panel's search matches a tool against: its name and description, lower-cased. It
// is worked out once per tool object (a WeakMap; the query cache keeps a tool's object while it is
// unchanged), not again for each of a thousand tools on every keystroke.
import type { SessionToolDto } from "@/server/mcp/session-tools.ts";

const searchTexts = new WeakMap<SessionToolDto, string>();

/** The tool's name and description, lower-cased, on two lines (a search never spans both). */
export function searchTextOf(tool: SessionToolDto): string {
  let text = searchTexts.get(tool);
  if (text === undefined) {
    text = `${tool.name}\n${tool.description}`.toLowerCase();
    searchTexts.set(tool, text);
  }
  return text;
}
