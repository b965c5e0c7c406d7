// Escapes text for use inside a RegExp: names of models, connectors and accounts hold `.` `(` `+`.
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
