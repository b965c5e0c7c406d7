import { afterEach, describe, expect, it, vi } from "vitest";

import { plainFetch } from "./plain-fetch.ts";

describe("plainFetch", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("calls the fetch Next.js wrapped, not the wrapper", async () => {
    const original = vi.fn(() => Promise.resolve(new Response("original")));
    const wrapper = Object.assign(
      vi.fn(() => Promise.resolve(new Response("wrapper"))),
      { _nextOriginalFetch: original },
    );
    vi.stubGlobal("fetch", wrapper);
    const response = await plainFetch("http://127.0.0.1:9/x", { method: "POST", body: "{}" });
    expect(await response.text()).toBe("original");
    expect(original).toHaveBeenCalledWith("http://127.0.0.1:9/x", { method: "POST", body: "{}" });
    expect(wrapper).not.toHaveBeenCalled();
  });

  it("calls whatever globalThis.fetch is when nothing wrapped it, looked up at call time", async () => {
    const first = vi.fn(() => Promise.resolve(new Response("first")));
    const second = vi.fn(() => Promise.resolve(new Response("second")));
    vi.stubGlobal("fetch", first);
    expect(await (await plainFetch("http://127.0.0.1:9/a")).text()).toBe("first");
    vi.stubGlobal("fetch", second);
    expect(await (await plainFetch("http://127.0.0.1:9/b")).text()).toBe("second");
  });
});
