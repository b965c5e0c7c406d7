"use client";
// Which exchanges of a long chat are rendered. A chat opens with its latest exchanges only (a page
// of 200 messages cost most of its time to interactive rendering and hydrating them all) and lands on
// them; the earlier ones are rendered a page at a time as the reader scrolls up to the top of what is
// shown, or presses "Show earlier messages" there. What the reader was looking at stays where it was
// on screen while earlier exchanges appear above it. Once rendered, an exchange stays rendered.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";

import { Button } from "@/components/ui/button.tsx";
import { useLatestCallback } from "@/components/ui/use-latest-callback.ts";

/** Exchanges (a user message with its answers) rendered when the chat opens. */
export const FIRST_EXCHANGES = 10;
/** Exchanges added above each time the reader reaches the top of what is shown. */
export const MORE_EXCHANGES = 20;
/** The earlier exchanges start rendering this far before the reader reaches the top. */
const REVEAL_MARGIN_PX = 800;

export type ExchangeWindow = {
  /** How many of the earliest exchanges are not rendered (yet). */
  hiddenCount: number;
  /** Renders the next page of earlier exchanges, keeping the shown ones where they are on screen. */
  showEarlier: () => void;
  /** The element just above the first rendered exchange (EarlierExchanges renders it). */
  topRef: RefObject<HTMLDivElement | null>;
};

/** Frames during which a shown exchange is kept in place after earlier ones were added above it. */
const KEEP_FRAMES = 30;

/**
 * Scrolls so that `element` is back at `top` on screen, now and for the next few frames: the
 * exchanges added above are drawn off screen at an estimated height (`content-visibility`), and
 * those near the screen then take their real height. It stops as soon as the reader scrolls.
 */
function keepInPlace({ element, top }: { element: Element; top: number }): () => void {
  let frame = 0;
  let frames = 0;
  let scrolledTo: number | null = null;
  const keep = () => {
    if (!element.isConnected || (scrolledTo !== null && Math.abs(window.scrollY - scrolledTo) > 1)) return;
    const drift = element.getBoundingClientRect().top - top;
    if (drift) window.scrollBy(0, drift);
    scrolledTo = window.scrollY;
    if (++frames < KEEP_FRAMES) frame = requestAnimationFrame(keep);
  };
  keep();
  return () => cancelAnimationFrame(frame);
}

export function useExchangeWindow(exchangeCount: number): ExchangeWindow {
  const [hidden, setHidden] = useState(() => Math.max(0, exchangeCount - FIRST_EXCHANGES));
  const hiddenCount = Math.min(hidden, exchangeCount);
  const topRef = useRef<HTMLDivElement | null>(null);
  const anchor = useRef<{ element: Element; top: number } | null>(null);
  const isWindowed = useRef(hiddenCount > 0);

  useLayoutEffect(() => {
    // A long chat opens on its latest exchanges, not on the first ones it shows; after a reload too,
    // where the browser would otherwise put back the old position once the page has loaded.
    if (!isWindowed.current) return;
    window.history.scrollRestoration = "manual";
    window.scrollTo({ top: document.documentElement.scrollHeight });
  }, []);
  useLayoutEffect(() => {
    const shown = anchor.current;
    anchor.current = null;
    return shown ? keepInPlace(shown) : undefined;
  }, [hiddenCount]);

  const showEarlier = () => {
    const first = topRef.current?.nextElementSibling;
    anchor.current = first ? { element: first, top: first.getBoundingClientRect().top } : null;
    setHidden((count) => Math.max(0, Math.min(count, exchangeCount) - MORE_EXCHANGES));
  };
  return { hiddenCount, showEarlier, topRef };
}

/**
 * The top of a windowed conversation: a button showing the earlier exchanges, which also shows them
 * by itself when it comes near the screen (observed anew after each page, so a screen that is still
 * not full asks for the next one).
 */
export function EarlierExchanges({ window: exchangeWindow }: { window: ExchangeWindow }) {
  const { hiddenCount, topRef } = exchangeWindow;
  const showEarlier = useLatestCallback(exchangeWindow.showEarlier);
  useEffect(() => {
    const top = topRef.current;
    if (!top || hiddenCount === 0) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && showEarlier(), {
      rootMargin: `${REVEAL_MARGIN_PX}px 0px 0px 0px`,
    });
    observer.observe(top);
    return () => observer.disconnect();
  }, [hiddenCount, topRef, showEarlier]);
  if (hiddenCount === 0) return null;
  return (
    <div ref={topRef} className="flex justify-center">
      <Button variant="ghost" className="text-xs" onClick={showEarlier}>
        Show earlier messages
      </Button>
    </div>
  );
}
