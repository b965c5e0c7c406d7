"use client";
// An answer's text as Markdown (GitHub flavour): code blocks highlighted (the highlighter is fetched
// when a message first has code: code-highlighter.ts), each with a copy button.
// Raw HTML in model output is not rendered (shown as text: markdown-to-react.ts), links open in a
// new tab with no opener and no referrer. Model output is untrusted (a tool result can tell the
// model what to write), so an image is never loaded from a URL it names: that request alone could
// carry chat data to a stranger. Such an image shows as a link the user may choose to open; only
// inline data: pictures (no request) are drawn. The CSP's img-src (server/security-headers.ts)
// enforces the same in the browser.
// Parsed again only when the text changes (memo); a streaming answer's at most once a frame, and
// only its last block.
import { memo, useMemo, useState, type ComponentProps, type ReactNode } from "react";

import { CheckIcon, CopyIcon } from "@/components/ui/icons.tsx";

import { useCodeHighlighter } from "./code-highlighter.ts";
import { copyText } from "./copy-text.ts";
import { settledBlocks } from "./markdown-blocks.ts";
import { INLINE_IMAGE, markdownToReact, type MarkdownComponents } from "./markdown-to-react.ts";
import { useFrameThrottled } from "./use-frame-throttled.ts";

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (node && typeof node === "object" && "props" in node) {
    return textOf((node.props as { children?: ReactNode }).children);
  }
  return "";
}

function languageOf(node: ReactNode): string | null {
  const child: unknown = Array.isArray(node) ? (node as unknown[])[0] : node;
  if (!child || typeof child !== "object" || !("props" in child)) return null;
  const className = (child.props as { className?: string }).className ?? "";
  return /language-([\w+#-]+)/.exec(className)?.[1] ?? null;
}

/** An image from model output: drawn when it is a data: image, else a link to where it points. */
function ModelImage({ src, alt }: { src?: unknown; alt?: string }) {
  const url = typeof src === "string" ? src : "";
  const label = alt?.trim() || "image";
  if (INLINE_IMAGE.test(url)) {
    // eslint-disable-next-line @next/next/no-img-element -- an inline data: image; there is nothing to optimise
    return <img src={url} alt={label} className="max-w-full" />;
  }
  let host = "";
  try {
    host = new URL(url).host;
  } catch {
    return <span>[Image: {label}]</span>;
  }
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      referrerPolicy="no-referrer"
      className="underline"
      data-testid="blocked-image"
    >
      [Image: {label}
      {host && ` (${host})`}, not loaded]
    </a>
  );
}

function CodeBlock(props: ComponentProps<"pre">) {
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const language = languageOf(props.children);
  const copy = async () => {
    setCopyState((await copyText(textOf(props.children))) ? "copied" : "failed");
    setTimeout(() => setCopyState("idle"), 1500);
  };
  return (
    <div className="my-2 overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-200 bg-zinc-100 px-3 py-1 text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
        <span className="font-mono">{language ?? "code"}</span>
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={copyState === "idle" ? "Copy code" : undefined}
          className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
        >
          {copyState === "copied" ? <CheckIcon className="size-3.5" /> : <CopyIcon className="size-3.5" />}
          <span aria-live="polite">
            {copyState === "copied" ? "Copied" : copyState === "failed" ? "Copy failed" : "Copy"}
          </span>
        </button>
      </div>
      <pre {...props} className="overflow-x-auto bg-zinc-50 p-3 text-sm dark:bg-zinc-950" />
    </div>
  );
}

/** Whether the text may hold a code block (fenced, or indented): only then is it highlighted. */
function mayHaveCodeBlock(text: string): boolean {
  return text.includes("```") || text.includes("~~~") || /(^|\n)( {4}|\t)/.test(text);
}

const components: MarkdownComponents = {
  pre: CodeBlock,
  table: ({ node: _node, ...props }) => (
    <div className="my-2 overflow-x-auto">
      <table {...props} />
    </div>
  ),
  a: ({ node: _node, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer" className="underline" />
  ),
  img: ({ src, alt }) => <ModelImage src={src} alt={alt} />,
};

/** One piece of Markdown's elements, parsed again only when its text changes. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const highlightPlugins = useCodeHighlighter(mayHaveCodeBlock(text));
  return useMemo(() => markdownToReact(text, components, highlightPlugins ?? undefined), [text, highlightPlugins]);
});

function MarkdownFrame({ children }: { children: ReactNode }) {
  return (
    <div className="markdown min-w-0 leading-relaxed [overflow-wrap:anywhere]" data-testid="markdown">
      {children}
    </div>
  );
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <MarkdownFrame>
      <MarkdownBlock text={text} />
    </MarkdownFrame>
  );
});

/**
 * The streaming answer's text: parsed again at most once per animation frame, and then only its
 * last block (markdown-blocks.ts); the blocks before it keep their elements.
 */
export function LiveMarkdown({ text }: { text: string }) {
  const blocks = settledBlocks(useFrameThrottled(text));
  return (
    <MarkdownFrame>
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} />
      ))}
    </MarkdownFrame>
  );
}
