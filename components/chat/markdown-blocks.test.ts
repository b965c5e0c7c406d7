import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { settledBlocks } from "./markdown-blocks.ts";
import { markdownToReact } from "./markdown-to-react.ts";

// Blocks parsed apart lose only the line breaks between top-level blocks, which render as nothing.
const html = (text: string) =>
  renderToStaticMarkup(createElement(Fragment, null, markdownToReact(text, {}))).replaceAll(">\n<", "><");
const blockwise = (text: string) => settledBlocks(text).map(html).join("");

describe("settledBlocks", () => {
  it("cuts after blank lines followed by a new block, and the blocks joined are the text", () => {
    const text = "# Title\n\nFirst paragraph\nstill first.\n\nSecond.\n\n- a\n- b\n\nTail is grow";
    const blocks = settledBlocks(text);
    expect(blocks).toEqual([
      "# Title\n\n",
      "First paragraph\nstill first.\n\n",
      "Second.\n\n",
      "- a\n- b\n\n",
      "Tail is grow",
    ]);
    expect(blocks.join("")).toBe(text);
    expect(blockwise(text)).toBe(html(text));
  });

  it("does not cut inside a fenced code block, open or closed", () => {
    const closed = "Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter";
    expect(settledBlocks(closed)).toEqual(["Intro\n\n", "```js\nconst a = 1;\n\nconst b = 2;\n```\n\n", "After"]);
    expect(blockwise(closed)).toBe(html(closed));
    const open = "Intro\n\n~~~~\ncode\n\nmore code\n~~~\n\nstill code";
    expect(settledBlocks(open)).toEqual(["Intro\n\n", "~~~~\ncode\n\nmore code\n~~~\n\nstill code"]);
  });

  it("does not cut before an indented line (a list item's or a code block's continuation)", () => {
    const text = "- item\n\n  continued\n\n    code\n\n    more code\n\nEnd";
    expect(settledBlocks(text)).toEqual(["- item\n\n  continued\n\n    code\n\n    more code\n\n", "End"]);
    expect(blockwise(text)).toBe(html(text));
  });

  it("keeps text with reference links or footnotes whole", () => {
    expect(settledBlocks("See [x][1].\n\nMore.\n\n[1]: https://example.com")).toHaveLength(1);
    expect(settledBlocks("A claim[^1].\n\nMore.\n\n[^1]: Source.")).toHaveLength(1);
  });

  // Quadratic before: a reference-definition pattern that could run over line ends took 2.7 s here.
  it("takes time in proportion to the text, whatever a model writes", { timeout: 2_000 }, () => {
    const text = "[abc def\n".repeat(20_000) + "\nEnd";
    expect(settledBlocks(text)).toEqual(["[abc def\n".repeat(20_000) + "\n", "End"]);
  });

  it("renders a streamed answer the same, block by block, at every length", () => {
    const answer =
      "## Plan\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n```py\nprint(1)\n\n```\n\nDone **now**.";
    for (let end = 1; end <= answer.length; end++) {
      const text = answer.slice(0, end);
      expect(settledBlocks(text).join("")).toBe(text);
    }
    expect(blockwise(answer)).toBe(html(answer));
  });
});
