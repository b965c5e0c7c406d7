// Joins class names, skipping falsy ones: `cn("a", isOn && "b")`. The primitives in this folder
// take a `className` that is appended after their own classes.
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
