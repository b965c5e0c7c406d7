import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import rehypeHighlight from "rehype-highlight";
import { describe, expect, it } from "vitest";

import { markdownToReact, type RehypePlugins } from "./markdown-to-react.ts";

const html = (text: string, plugins?: RehypePlugins) =>
  renderToStaticMarkup(createElement("div", null, markdownToReact(text, {}, plugins)));

describe("markdownToReact", () => {
  it("renders GitHub-flavoured Markdown", () => {
    const out = html("| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ **bold** https://example.com");
    expect(out).toContain("<table>");
    expect(out).toContain("<td>2</td>");
    expect(out).toContain("<del>gone</del>");
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toContain('<a href="https://example.com">https://example.com</a>');
  });

  it("shows raw HTML as text instead of rendering it", () => {
    const out = html('Hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<div onclick="x()">block</div>');
    expect(out).not.toMatch(/<script|<img|<div onclick/);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain("&lt;div onclick=&quot;x()&quot;&gt;block&lt;/div&gt;");
  });

  it("empties unsafe URLs and keeps safe ones", () => {
    const out = html(
      "[a](javascript:alert(1)) [b](data:text/html,x) [c](/relative?q=1) [d](mailto:me@example.com) [e](vbscript:x)",
    );
    expect(out).toContain('<a href="">a</a>');
    expect(out).toContain('<a href="">b</a>');
    expect(out).toContain('<a href="/relative?q=1">c</a>');
    expect(out).toContain('<a href="mailto:me@example.com">d</a>');
    expect(out).toContain('<a href="">e</a>');
  });

  it("keeps an image's inline png, gif, jpeg or webp picture and nothing else inline", () => {
    expect(html("![dot](data:image/png;base64,iVBORw0KGgo=)")).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html("![svg](data:image/svg+xml;base64,PHN2Zz4=)")).toBe('<div><p><img alt="svg"/></p></div>');
    expect(html("[link](data:image/png;base64,iVBORw0KGgo=)")).toContain('href=""');
  });

  it("runs the rehype plugins it is given, also on the processor it kept for that plugin list", () => {
    const highlight = rehypeHighlight({ detect: false });
    const plugins: RehypePlugins = [() => highlight];
    const code = "```js\nconst x = 1;\n```";
    expect(html(code)).not.toContain("hljs");
    expect(html(code, plugins)).toContain('<span class="hljs-keyword">const</span>');
    expect(html(code, plugins)).toContain('<span class="hljs-keyword">const</span>');
  });
});
