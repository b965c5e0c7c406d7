// The colour theme: "system" follows the OS, "light" / "dark" override it. The choice lives in
// localStorage; the `dark` class on <html> (Tailwind's dark variant, see app/globals.css) is what
// the styles read. `themeScript` runs in <head> before the first paint, so a page never flashes the
// wrong theme; it also follows OS changes and other tabs. `applyTheme` is its in-app twin.
export type Theme = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "patchbay-theme";
export const THEME_CHANGE_EVENT = "patchbay-theme-change";

export function readTheme(): Theme {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

function paint(theme: Theme): void {
  const isDark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", isDark);
  document.documentElement.style.colorScheme = isDark ? "dark" : "light";
}

/** Stores the choice, repaints this tab and tells the toggles showing it. */
export function applyTheme(theme: Theme): void {
  try {
    if (theme === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage can be off (private mode): the theme still applies to this page.
  }
  paint(theme);
  window.dispatchEvent(new Event(THEME_CHANGE_EVENT));
}

/** Inline <head> script: the same rule as `paint`, plain ES5, no imports. */
export const themeScript = `(function(){try{var k=${JSON.stringify(THEME_STORAGE_KEY)},m=window.matchMedia("(prefers-color-scheme: dark)");function a(){var t=null;try{t=localStorage.getItem(k)}catch(e){}var d=t==="dark"||(t!=="light"&&m.matches),r=document.documentElement;r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}a();m.addEventListener("change",a);window.addEventListener("storage",function(e){if(e.key===k)a()})}catch(e){}})();`;
