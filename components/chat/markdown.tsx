"use client";
// An answer's text as Markdown (GitHub flavour): code blocks highlighted, each with a copy button.
// Raw HTML in model output is not rendered (react-markdown escapes it), links open in a new tab.
import { useState, type ComponentProps, type ReactNode } from "react";
import ReactMarkdown from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (node && typeof node === "object" && "props" in node) {
    return textOf((node.props as { children?: ReactNode }).children);
  }
  return "";
}

function CodeBlock(props: ComponentProps<"pre">) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(textOf(props.children));
    setIsCopied(true);
    setTimeout(() => setIsCopied(false), 1500);
  };
  return (
    <div className="group relative my-2">
      <button
        type="button"
        onClick={() => void copy()}
        className="absolute right-2 top-2 rounded border border-zinc-300 bg-white/80 px-2 py-0.5 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900/80 dark:text-zinc-200"
      >
        {isCopied ? "Copied" : "Copy"}
      </button>
      <pre {...props} className="overflow-x-auto rounded-md bg-zinc-50 p-3 text-sm dark:bg-zinc-900" />
    </div>
  );
}

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown leading-relaxed" data-testid="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]}
        components={{
          pre: CodeBlock,
          a: ({ node: _node, ...props }) => (
            <a {...props} target="_blank" rel="noreferrer noopener" className="underline" />
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
