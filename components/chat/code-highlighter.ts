// The highlighter of code blocks in answers (rehype-highlight: highlight.js with its common
// languages), fetched only when a message first has a code block. It is about a fifth of the chat
// page's JavaScript, so a chat without code never downloads or compiles it. Until it has arrived a
// code block shows as plain text (the server-rendered page too, so hydration matches); then every
// message with code renders again, highlighted. A failed download is tried again by the next
// render of a message with code.
import { useEffect, useSyncExternalStore } from "react";
import type { RehypePlugins } from "./markdown-to-react.ts";

let plugins: RehypePlugins | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function load(): void {
  loading ??= import("rehype-highlight").then(
    ({ default: rehypeHighlight }) => {
      // Made once: rehype-highlight builds its lowlight instance (registering every language) each
      // time the plugin is attached, and one processor then serves every message (markdown-to-react.ts).
      const highlight = rehypeHighlight({ detect: false });
      plugins = [() => highlight];
      for (const listener of listeners) listener();
    },
    () => {
      loading = null;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const subscribeNone = () => () => undefined;

/**
 * The rehype plugins that highlight code: null while there is no code or the highlighter is on its
 * way. Only a message with code listens for its arrival (the others do not render again).
 */
export function useCodeHighlighter(hasCode: boolean): RehypePlugins | null {
  const loaded = useSyncExternalStore(
    hasCode ? subscribe : subscribeNone,
    () => (hasCode ? plugins : null),
    () => null,
  );
  useEffect(() => {
    if (hasCode) load();
  }, [hasCode]);
  return loaded;
}
