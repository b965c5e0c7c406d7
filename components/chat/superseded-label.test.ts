import { describe, expect, it } from "vitest";

import { supersededLabel } from "./superseded-label.ts";

const request = (toolsRevision: number) => ({ index: 0, toolsRevision, toolNames: [], finishReason: null });

describe("supersededLabel", () => {
  it("names the revision of the replacement's first request", () => {
    const turns = [
      { id: "t1", restartOfId: null, requests: [request(1)] },
      { id: "t2", restartOfId: "t1", requests: [request(3), { ...request(4), index: 1 }] },
    ];
    expect(supersededLabel(turns[0]!, turns)).toBe("Restarted with revision 3");
  });

  it("says the answer was replaced while the replacement has not asked the model yet", () => {
    const turns = [
      { id: "t1", restartOfId: null, requests: [request(1)] },
      { id: "t2", restartOfId: "t1", requests: [] },
    ];
    expect(supersededLabel(turns[0]!, turns)).toBe("Restarted — this answer was replaced");
  });
});
