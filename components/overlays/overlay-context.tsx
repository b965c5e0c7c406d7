"use client";
// The chat's context overlays for the components deep in the conversation (messages, tool cards):
// what is excluded or replaced, and the actions, through React context so the memoised turns need
// no new props (a change of the overlays re-renders only the components that read them).
import { createContext, useContext } from "react";

import type { OverlayActions, OverlayView } from "./use-overlays.ts";

export type OverlayControls = { view: OverlayView; actions: OverlayActions };

const OverlayContext = createContext<OverlayControls | null>(null);

export const OverlayProvider = OverlayContext.Provider;

/** The chat's overlays, or null outside a chat (nothing to exclude there). */
export function useOverlayControls(): OverlayControls | null {
  return useContext(OverlayContext);
}
