"use client";
// Provider + account + model for the next turn, in the composer's row: a button showing the model
// that opens a popover with a search box over the models, grouped by source (the server-wide
// providers, then the user's own provider accounts from Settings → Providers; model-options.ts).
// The search box is a combobox over the list: ↑/↓ move, Enter picks, Escape closes (focus returns
// to the button); a click picks too.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { memo, useId, useState, type KeyboardEvent } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { CheckIcon, ChevronDownIcon } from "@/components/ui/icons.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover.tsx";

import { choiceValue, listModelGroups, type ModelChoice, type ModelGroup } from "./model-options.ts";

export type { ModelChoice } from "./model-options.ts";

type Props = { value: ModelChoice | null; onChange: (choice: ModelChoice) => void };

function NoProvider() {
  return (
    <p className="text-sm text-amber-700 dark:text-amber-300">
      No model provider yet.{" "}
      <Link href="/settings/providers" className="underline">
        Add an API key or endpoint
      </Link>
    </p>
  );
}

type ListProps = {
  id: string;
  groups: ModelGroup[];
  current: string;
  active: string | undefined;
  onActive: (value: string) => void;
  onPick: (choice: ModelChoice) => void;
};

function optionId(listId: string, value: string): string {
  return `${listId}-${value.replace(/[^\w-]/g, "_")}`;
}

function ModelList({ id, groups, current, active, onActive, onPick }: ListProps) {
  if (groups.length === 0)
    return <p className="px-2 py-3 text-xs text-zinc-600 dark:text-zinc-400">No model matches.</p>;
  return (
    <div id={id} role="listbox" aria-label="Models" className="max-h-72 overflow-y-auto">
      {groups.map((group) => (
        <div key={group.key} role="group" aria-labelledby={`${id}-${group.key}`} className="py-1">
          <div
            id={`${id}-${group.key}`}
            className="px-2 py-1 text-xs font-medium text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400"
          >
            {group.label}
          </div>
          {group.options.map((option) => (
            <div
              key={option.value}
              id={optionId(id, option.value)}
              role="option"
              aria-selected={option.value === current}
              data-value={option.value}
              data-active={option.value === active || undefined}
              onMouseMove={() => onActive(option.value)}
              onClick={() => onPick(option.choice)}
              className="flex cursor-default items-center gap-2 rounded py-1 pr-2 pl-6 text-sm [overflow-wrap:anywhere] data-[active]:bg-zinc-100 dark:data-[active]:bg-zinc-800"
            >
              {option.value === current && <CheckIcon className="-ml-4 size-3 shrink-0" />}
              {option.choice.model}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** The next option's value after a key press in the search box, or null when the key is not a move. */
function moveActive(key: string, values: string[], active: string | undefined): string | null {
  const at = active === undefined ? -1 : values.indexOf(active);
  if (key === "ArrowDown") return values[Math.min(values.length - 1, at + 1)] ?? null;
  if (key === "ArrowUp") return values[Math.max(0, at - 1)] ?? null;
  if (key === "Home") return values[0] ?? null;
  if (key === "End") return values.at(-1) ?? null;
  return null;
}

type SearchProps = {
  listId: string;
  search: string;
  onSearch: (search: string) => void;
  values: string[];
  active: string | undefined;
  onActive: (value: string) => void;
  onEnter: () => void;
};

/** The search box, a combobox over the list: ↑/↓/Home/End move the active option, Enter picks it. */
function ModelSearch({ listId, search, onSearch, values, active, onActive, onEnter }: SearchProps) {
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const next = moveActive(event.key, values, active);
    if (next !== null) {
      event.preventDefault();
      onActive(next);
      document.getElementById(optionId(listId, next))?.scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter") {
      event.preventDefault();
      onEnter();
    }
  }
  return (
    <input
      type="text"
      role="combobox"
      aria-label="Search models"
      aria-expanded
      aria-controls={listId}
      aria-autocomplete="list"
      aria-activedescendant={active ? optionId(listId, active) : undefined}
      placeholder="Search models"
      value={search}
      onChange={(event) => onSearch(event.target.value)}
      onKeyDown={onKeyDown}
      className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
    />
  );
}

function ModelPickerContent({ value, onChange }: Props) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.chat.providers.queryOptions());
  const [isOpen, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const [active, setActive] = useState<string | undefined>(undefined);
  const listId = useId();
  if (sources.data?.length === 0) return <NoProvider />;
  const groups = listModelGroups(sources.data ?? [], search);
  const options = groups.flatMap((group) => group.options);
  const current = value ? choiceValue(value) : "";
  const isKnown = listModelGroups(sources.data ?? [], "").some((group) =>
    group.options.some((option) => option.value === current),
  );
  const shownActive = options.some((option) => option.value === active) ? active : options[0]?.value;

  function openChange(next: boolean) {
    setOpen(next);
    setSearch("");
    setActive(next ? current : undefined);
  }
  function pick(choice: ModelChoice) {
    onChange(choice);
    openChange(false);
  }
  return (
    <Popover open={isOpen} onOpenChange={openChange}>
      <PopoverTrigger
        className="inline-flex max-w-[16rem] min-w-0 items-center gap-1 rounded-md border border-zinc-300 px-2 py-1 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800"
        data-testid="model-picker"
        data-value={current}
      >
        <span className="sr-only">Model: </span>
        <span className="truncate">
          {value ? `${value.model}${isKnown || !sources.data ? "" : " (unavailable)"}` : "Choose a model"}
        </span>
        <ChevronDownIcon className="size-3 shrink-0" />
      </PopoverTrigger>
      <PopoverContent aria-label="Choose a model" className="flex w-[min(20rem,calc(100vw-1rem))] flex-col gap-1">
        <ModelSearch
          listId={listId}
          search={search}
          onSearch={setSearch}
          values={options.map((option) => option.value)}
          active={shownActive}
          onActive={setActive}
          onEnter={() => {
            const chosen = options.find((option) => option.value === shownActive);
            if (chosen) pick(chosen.choice);
          }}
        />
        <ModelList
          id={listId}
          groups={groups}
          current={current}
          active={shownActive}
          onActive={setActive}
          onPick={pick}
        />
      </PopoverContent>
    </Popover>
  );
}

/** Skips the chat's streaming re-renders: the same model (by value) and handler draw the same picker. */
export const ModelPicker = memo(
  ModelPickerContent,
  (prev, next) =>
    prev.onChange === next.onChange &&
    (prev.value && choiceValue(prev.value)) === (next.value && choiceValue(next.value)),
);
