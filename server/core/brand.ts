// Recognising Patchbay's own error classes without `instanceof`. A Next.js production build can
// hold several copies of one class (the instrumentation bundle, each route bundle), so an error made
// by one copy fails `instanceof` against another. Each own class carries a process-wide symbol
// (`Symbol.for`, shared by every copy) and is recognised by it: `isAppError(e)`, `isToolError(e)`.
// An ESLint rule (eslint.config.mjs) keeps `instanceof` on these classes out of the code base.

/** The process-wide brand of an own error class: the same symbol in every bundle. */
export function brandOf(className: string): symbol {
  return Symbol.for(`patchbay.${className}`);
}

/** True when `value` carries `brand` (set by the class's constructor), whichever copy made it. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
