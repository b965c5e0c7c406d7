"use client";
// The metrics page's filters: period, model, connector, tool and chat. Each is a labelled select;
// "All" clears it.
import { SelectField } from "@/components/ui/text-field.tsx";

export type MetricsFilterState = { days: number; model: string; connector: string; tool: string; chatId: string };

type Choices = { models: string[]; connectors: string[]; tools: string[]; chats: { id: string; title: string }[] };
type Props = { value: MetricsFilterState; choices: Choices | undefined; onChange: (value: MetricsFilterState) => void };

const periods = [
  { days: 1, label: "Today" },
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
  { days: 365, label: "Last 365 days" },
];

/** The current value stays offered even when the period has no rows for it. */
const withCurrent = (names: string[] = [], current: string) =>
  current && !names.includes(current) ? [current, ...names] : names;

export function MetricsFilters({ value, choices, onChange }: Props) {
  const set = (patch: Partial<MetricsFilterState>) => onChange({ ...value, ...patch });
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-5" role="group" aria-label="Filters">
      <SelectField label="Period" value={String(value.days)} onValueChange={(days) => set({ days: Number(days) })}>
        {periods.map((period) => (
          <option key={period.days} value={period.days}>
            {period.label}
          </option>
        ))}
      </SelectField>
      <NameSelect
        label="Model"
        value={value.model}
        names={withCurrent(choices?.models, value.model)}
        onPick={(model) => set({ model })}
      />
      <NameSelect
        label="Connector"
        value={value.connector}
        names={withCurrent(choices?.connectors, value.connector)}
        onPick={(connector) => set({ connector })}
      />
      <NameSelect
        label="Tool"
        value={value.tool}
        names={withCurrent(choices?.tools, value.tool)}
        onPick={(tool) => set({ tool })}
      />
      <SelectField label="Chat" value={value.chatId} onValueChange={(chatId) => set({ chatId })}>
        <option value="">All chats</option>
        {choices?.chats.map((chat) => (
          <option key={chat.id} value={chat.id}>
            {chat.title}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

function NameSelect(props: { label: string; value: string; names: string[]; onPick: (name: string) => void }) {
  return (
    <SelectField label={props.label} value={props.value} onValueChange={props.onPick}>
      <option value="">All</option>
      {props.names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
