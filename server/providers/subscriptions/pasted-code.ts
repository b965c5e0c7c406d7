// Reads what a user pastes back from a vendor's code page: `code#state` (Claude's page), a bare code
// (Google's page), or the whole callback URL with `?code=…&state=…`. Pure.
import { AppError } from "../../errors.ts";

export type PastedCode = { code: string; state?: string };

export function parsePastedCode(pasted: string): PastedCode {
  const text = pasted.trim();
  if (text === "") throw new AppError("bad_request:provider", "Paste the code the sign-in page showed you.");
  if (/^https?:\/\//i.test(text)) {
    const url = new URL(text);
    const code = url.searchParams.get("code") ?? "";
    const state = url.searchParams.get("state") ?? (url.hash.slice(1) || undefined);
    if (code === "") throw new AppError("bad_request:provider", "That address holds no sign-in code.");
    return { code, ...(state && { state }) };
  }
  const [code = "", state] = text.split("#", 2);
  if (code === "" || /\s/.test(code)) {
    throw new AppError("bad_request:provider", "That does not look like a sign-in code; copy it again.");
  }
  return { code, ...(state && { state }) };
}
