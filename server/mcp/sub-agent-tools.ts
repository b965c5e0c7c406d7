// The tools that consult a persona as a sub-agent: each of the chat owner's personas marked
// "available as a sub-agent" becomes the tool `persona.<slug>` of the connector `persona` (reserved,
// like `builtin`), with the persona's name and prompt as its description and the input
// `{ task, context? }`. They are composed into every revision of the owner's chats (compose-tools.ts),
// so switching one is a tool change like any other. The registry never runs them: a turn's tool
// round hands their calls to the sub-agent runner (server/session/sub-agent-run.ts).
import type { McpTool } from "./connection-types.ts";
import { PERSONA_CONNECTOR } from "./connector-names.ts";
import type { ListSource } from "./snapshot-manifest.ts";
import { hashToolList } from "./tool-lists.ts";

const MAX_SLUG = 40;
const MAX_PROMPT_IN_DESCRIPTION = 300;

export const subAgentInputSchema = {
  type: "object",
  properties: {
    task: { type: "string", description: "What the sub-agent should do, in full: it does not see this chat." },
    context: { type: "string", description: "Facts from this chat the sub-agent needs (optional)." },
  },
  required: ["task"],
  additionalProperties: false,
} as const;

/** "Code Reviewer (strict)" → "code_reviewer_strict"; empty → "persona". */
export function personaSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_SLUG);
  return slug || "persona";
}

export type SubAgentPersona = { id: string; name: string; systemPrompt: string };

/**
 * Slugs for personas in name order: a slug already taken gets `_2`, `_3`… in that order, so the
 * same personas always get the same slugs (the tool-round finds a persona by its slug again).
 */
export function slugPersonas<T extends SubAgentPersona>(personas: readonly T[]): { slug: string; persona: T }[] {
  const taken = new Set<string>();
  return [...personas]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((persona) => {
      const base = personaSlug(persona.name);
      let slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base}_${n}`;
      taken.add(slug);
      return { slug, persona };
    });
}

function describe(persona: SubAgentPersona): string {
  const prompt = persona.systemPrompt.replace(/\s+/g, " ").trim();
  const shown = prompt.length > MAX_PROMPT_IN_DESCRIPTION ? `${prompt.slice(0, MAX_PROMPT_IN_DESCRIPTION)}…` : prompt;
  return (
    `Consult the persona "${persona.name}" as a sub-agent: it works on the task on its own, with its own ` +
    `model and tools, and answers with its final text. Give it everything it needs in task and context. ` +
    `Its instructions: ${shown}`
  );
}

/** The personas as the tool list of the `persona` connector, stored by hash like any other. */
export function subAgentToolList(personas: readonly SubAgentPersona[]): ListSource {
  const list: McpTool[] = slugPersonas(personas).map(({ slug, persona }) => ({
    name: slug,
    description: describe(persona),
    inputSchema: structuredClone(subAgentInputSchema) as unknown as McpTool["inputSchema"],
  }));
  return { name: PERSONA_CONNECTOR, list: hashToolList(list) };
}
