import { describe, expect, it } from "vitest";

import { composerKeyAction } from "./composer.tsx";

const key = (
  k: string,
  mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; isComposing: boolean }> = {},
) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  isComposing: false,
  ...mods,
});

describe("composerKeyAction", () => {
  const sends = { isEnterNewline: false, isEmpty: false };
  const newline = { isEnterNewline: true, isEmpty: false };

  it("sends on Enter by default, Shift+Enter adds a line", () => {
    expect(composerKeyAction(key("Enter"), sends)).toBe("send");
    expect(composerKeyAction(key("Enter", { shiftKey: true }), sends)).toBeNull();
  });

  it("with Enter set to a new line, only Ctrl/Cmd+Enter sends", () => {
    expect(composerKeyAction(key("Enter"), newline)).toBeNull();
    expect(composerKeyAction(key("Enter", { ctrlKey: true }), newline)).toBe("send");
    expect(composerKeyAction(key("Enter", { metaKey: true }), newline)).toBe("send");
  });

  it("never acts while an input method composes", () => {
    expect(composerKeyAction(key("Enter", { isComposing: true }), sends)).toBeNull();
    expect(composerKeyAction(key("Enter", { ctrlKey: true, isComposing: true }), newline)).toBeNull();
  });

  it("edits the last message on ArrowUp only when the box is empty", () => {
    expect(composerKeyAction(key("ArrowUp"), { ...sends, isEmpty: true })).toBe("edit-last");
    expect(composerKeyAction(key("ArrowUp"), sends)).toBeNull();
  });
});
