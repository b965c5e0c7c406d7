// Markdown (GitHub flavour) to React elements, with processors made once and reused. A unified
// processor is built by attaching its plugins, and remark-gfm's attach combines micromark's
// extensions: built for every render (react-markdown does so) that was about half the cost of
// parsing the streaming answer each frame. Here there is one frozen processor per set of rehype
// plugins (plain, or with the code highlighter once it has arrived).
//
// Model output is untrusted. Raw HTML in it is shown as text, never rendered; every URL attribute
// (href, src, cite, ...) goes through react-markdown's defaultUrlTransform, which keeps relative
// URLs and http(s), mailto, irc(s) and xmpp ones and empties the rest (javascript:, data:, ...),
// except an image's inline data: picture (png, gif, jpeg, webp: no request is made for it). What a
// link or image then becomes is up to the components (markdown.tsx).
import type { Root } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { urlAttributes } from "html-url-attributes";
import type { ReactElement } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import { defaultUrlTransform, type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";

export type RehypePlugins = NonNullable<Options["rehypePlugins"]>;
export type MarkdownComponents = Components;

// hast-util-to-jsx-runtime types its elements with the global JSX namespace, which React 19's types
// no longer declare; react-markdown's own Components type is the one written against React's.
type ToReact = (
  tree: Root,
  options: {
    Fragment: typeof Fragment;
    jsx: typeof jsx;
    jsxs: typeof jsxs;
    components: MarkdownComponents;
    ignoreInvalidStyle: boolean;
    passKeys: boolean;
    passNode: boolean;
  },
) => ReactElement;
const toReact = toJsxRuntime as unknown as ToReact;

const NO_PLUGINS: RehypePlugins = [];

function makeProcessor(rehypePlugins: RehypePlugins) {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypePlugins)
    .freeze();
}

const processors = new WeakMap<RehypePlugins, ReturnType<typeof makeProcessor>>();

function processorOf(rehypePlugins: RehypePlugins) {
  let processor = processors.get(rehypePlugins);
  if (!processor) {
    processor = makeProcessor(rehypePlugins);
    processors.set(rehypePlugins, processor);
  }
  return processor;
}

/** An inline picture: drawing it makes no request. SVG is left out (it is a document). */
export const INLINE_IMAGE = /^data:image\/(png|gif|jpeg|webp);/i;

function safeUrl(url: string, attribute: string, tagName: string): string {
  if (tagName === "img" && attribute === "src" && INLINE_IMAGE.test(url)) return url;
  return defaultUrlTransform(url);
}

/** Each attribute that holds a URL, with the elements it is a URL on (null: every element). */
const URL_ATTRIBUTES = Object.entries(urlAttributes);

/** Raw HTML becomes its text; URL attributes keep only safe URLs. */
function disarm(tree: Root): void {
  visit(tree, (node, index, parent) => {
    if (node.type === "raw" && parent && typeof index === "number") {
      parent.children[index] = { type: "text", value: node.value };
      return;
    }
    if (node.type !== "element") return;
    for (const [attribute, tags] of URL_ATTRIBUTES) {
      if (!Object.hasOwn(node.properties, attribute)) continue;
      if (tags !== null && !tags.includes(node.tagName)) continue;
      node.properties[attribute] = safeUrl(String(node.properties[attribute] ?? ""), attribute, node.tagName);
    }
  });
}

/**
 * The elements of `text` as Markdown. The same `rehypePlugins` array (by identity) reuses its
 * processor; pass a module-level constant or a cached one, not a new array each call.
 */
export function markdownToReact(
  text: string,
  components: MarkdownComponents,
  rehypePlugins: RehypePlugins = NO_PLUGINS,
): ReactElement {
  const processor = processorOf(rehypePlugins);
  const tree = processor.runSync(processor.parse(text));
  disarm(tree);
  return toReact(tree, {
    Fragment,
    jsx,
    jsxs,
    components,
    ignoreInvalidStyle: true,
    passKeys: true,
    passNode: true,
  });
}
