"use client";
// A value that follows another at most once per animation frame: the live answer's Markdown is
// parsed again when the browser is about to paint, not for every streamed chunk in between. The
// last value always lands (one frame later at most).
import { useEffect, useRef, useState } from "react";

export function useFrameThrottled<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const frame = useRef<number | null>(null);
  useEffect(() => {
    latest.current = value;
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      setShown(latest.current);
    });
  }, [value]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return shown;
}
