import { describe, expect, it } from "vitest";

import { conversationUuid } from "./connection.ts";

describe("conversationUuid", () => {
  it("gives one chat the same UUID on every request and different chats different ones", () => {
    const first = conversationUuid("cmchat0000000000000000001");
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(conversationUuid("cmchat0000000000000000001")).toBe(first);
    expect(conversationUuid("cmchat0000000000000000002")).not.toBe(first);
  });
});
