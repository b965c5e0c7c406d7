import { describe, expect, it } from "vitest";

import { applyChatEvent, createChatState } from "@/components/chat/chat-state.ts";
import { buildHistory, buildTurn } from "@/components/chat/history-fixture.ts";

import { pendingOverlayKey } from "./pinned-notes.tsx";
import { viewOverlays } from "./use-overlays.ts";

const history = buildHistory({
  session: { activeTurnId: "t1", overlayRevision: 2 },
  turns: [buildTurn({ id: "t1" })],
  lastEventId: "10",
});

describe("the chat state's overlays", () => {
  it("follows overlays.changed and records each request's overlays", () => {
    let state = createChatState(history);
    expect(state.overlayRevision).toBe(2);
    const overlays = { excluded: [{ id: "u0", label: "user message “x”" }], pinned: [], replaced: [] };
    state = applyChatEvent(state, {
      id: "11",
      turnId: "t1",
      type: "request.started",
      data: { index: 0, toolsRevision: 1, toolNames: [], overlayRevision: 2, overlays },
    });
    state = applyChatEvent(state, { id: "12", turnId: null, type: "overlays.changed", data: { revision: 3 } });
    state = applyChatEvent(state, { id: "9", turnId: null, type: "overlays.changed", data: { revision: 9 } }); // old: ignored
    expect(state.overlayRevision).toBe(3);
    expect(state.turns[0]!.requests[0]).toMatchObject({ overlayRevision: 2, overlays });
    const streaming = { turnId: "t1", revision: state.turns[0]!.requests[0]!.overlayRevision ?? null };
    expect(pendingOverlayKey(streaming, state.overlayRevision)).toBe("t1@3");
    expect(pendingOverlayKey(streaming, 2)).toBeNull();
    expect(pendingOverlayKey({ turnId: "t1", revision: null }, 3)).toBeNull();
    expect(pendingOverlayKey(null, 3)).toBeNull();
  });
});

describe("viewOverlays", () => {
  it("sorts the overlays by what they change on the page", () => {
    const at = new Date(0);
    const view = viewOverlays({
      revision: 4,
      overlays: [
        { id: "o1", kind: "exclude", messageId: "m1", callId: null, text: null, createdAt: at },
        { id: "o2", kind: "exclude", messageId: null, callId: "c1", text: null, createdAt: at },
        { id: "o3", kind: "replace", messageId: null, callId: "c2", text: "short", createdAt: at },
        { id: "o4", kind: "pin", messageId: null, callId: null, text: "note", createdAt: at },
      ],
    });
    expect(view.excludedMessages.get("m1")?.id).toBe("o1");
    expect(view.excludedRounds.get("c1")?.id).toBe("o2");
    expect(view.replacedResults.get("c2")?.text).toBe("short");
    expect(view.pins.map((pin) => pin.id)).toEqual(["o4"]);
  });
});
