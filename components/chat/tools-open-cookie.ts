// Whether the chat's Tools panel is open, remembered in a cookie (not in the browser's storage) so
// that the server renders a chat page with the panel as the user left it: the panel is in the
// page's HTML and React takes it over like the rest, instead of drawing it after hydration and
// shifting the chat sideways. Read by the chat page on the server and by chat-tools.tsx.
export const TOOLS_OPEN_COOKIE = "patchbay-tools-open";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Whether a Cookie header (or document.cookie) says the panel is open. */
export function isToolsOpenIn(cookies: string): boolean {
  return cookies.split(";").some((pair) => pair.trim() === `${TOOLS_OPEN_COOKIE}=1`);
}

/** The document.cookie assignment that remembers (or forgets) the open panel. */
export function toolsOpenCookie(isOpen: boolean): string {
  return `${TOOLS_OPEN_COOKIE}=${isOpen ? "1" : ""}; Path=/; Max-Age=${isOpen ? YEAR_SECONDS : 0}; SameSite=Lax`;
}
