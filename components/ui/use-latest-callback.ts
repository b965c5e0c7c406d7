"use client";
// A callback whose identity never changes and that always calls the latest handler it was given, so
// a memoised child (React.memo) handed it does not re-render when its parent does. Call it from event
// handlers only, never during render: the latest handler is stored after each commit.
import { useCallback, useLayoutEffect, useRef } from "react";

export function useLatestCallback<A extends unknown[], R>(handler: ((...args: A) => R) | undefined) {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current?.(...args), []);
}
