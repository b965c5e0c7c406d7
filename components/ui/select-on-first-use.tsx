"use client";
// A Select (select.tsx) that costs a plain button until it is first used. A Radix Select brings a
// popper, a collection and several contexts; a list with hundreds of them (the Tools panel's policy
// per tool) paid for them all on every mount. Until the user reaches it, this renders a stand-in with
// the trigger's role, name, text and look; the first focus mounts the real Select in its place with
// the focus on it (so every key works as on the real one, typeahead included), and a first click or
// tap mounts it already open. From then on it is the real Select.
import { useRef, useState, type FocusEvent, type PointerEvent } from "react";

import { cn } from "./cn.ts";
import { ChevronDownIcon } from "./icons.tsx";
import { Select, selectTriggerClass, type SelectProps } from "./select.tsx";

type Use = "none" | "focused" | "opened";

export function SelectOnFirstUse<V extends string>(props: SelectProps<V>) {
  const [use, setUse] = useState<Use>("none");
  // The pointer that last pressed the stand-in: a tap focuses it before its click, and opens it too.
  const pointerType = useRef<string | null>(null);
  if (use !== "none") return <Select {...props} autoFocus defaultOpen={use === "opened"} />;

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    pointerType.current = event.pointerType;
    // As the real trigger does: a left mouse press opens the list and does not move the focus itself.
    if (event.button === 0 && !event.ctrlKey && event.pointerType === "mouse") {
      event.preventDefault();
      setUse("opened");
    }
  };
  const onFocus = (_event: FocusEvent<HTMLButtonElement>) =>
    setUse(pointerType.current !== null && pointerType.current !== "mouse" ? "opened" : "focused");
  const label = props.options.find((option) => option.value === props.value)?.label ?? "";
  return (
    <button
      type="button"
      role="combobox"
      aria-label={props["aria-label"]}
      aria-expanded={false}
      aria-autocomplete="none"
      dir="ltr"
      data-state="closed"
      disabled={props.disabled}
      data-disabled={props.disabled ? "" : undefined}
      className={cn(selectTriggerClass, props.className)}
      onPointerDown={onPointerDown}
      onFocus={onFocus}
    >
      <span style={{ pointerEvents: "none" }}>{label}</span>
      <span aria-hidden="true">
        <ChevronDownIcon className="size-3" />
      </span>
    </button>
  );
}
