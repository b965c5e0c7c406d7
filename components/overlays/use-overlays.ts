"use client";
// A chat's context overlays in the browser: the list (reloaded when an `overlays.changed` event moves
// the chat's overlay revision past the loaded one, so other tabs and instances stay in step), what
// it means for the page (which messages and tool rounds are excluded, which results are replaced,
// the pinned notes) and the actions that change it. A failed action is kept in `error`.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { OverlayDto, OverlayListDto } from "@/server/session/overlays.ts";

/** What the page shows of the overlays: each lookup gives the overlay to remove to undo it. */
export type OverlayView = {
  excludedMessages: Map<string, OverlayDto>;
  excludedRounds: Map<string, OverlayDto>;
  replacedResults: Map<string, OverlayDto>;
  pins: OverlayDto[];
};

export function viewOverlays(list: OverlayListDto | undefined): OverlayView {
  const view: OverlayView = {
    excludedMessages: new Map(),
    excludedRounds: new Map(),
    replacedResults: new Map(),
    pins: [],
  };
  for (const overlay of list?.overlays ?? []) {
    if (overlay.kind === "pin") view.pins.push(overlay);
    else if (overlay.kind === "replace" && overlay.callId) view.replacedResults.set(overlay.callId, overlay);
    else if (overlay.messageId) view.excludedMessages.set(overlay.messageId, overlay);
    else if (overlay.callId) view.excludedRounds.set(overlay.callId, overlay);
  }
  return view;
}

const succeeded = () => true;
const failed = () => false;

export function useOverlays(sessionId: string, overlayRevision: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const queryKey = trpc.overlays.list.queryKey({ sessionId });
  const list = useQuery(trpc.overlays.list.queryOptions({ sessionId }));
  const loaded = list.data?.revision;
  useEffect(() => {
    if (loaded !== undefined && overlayRevision > loaded) void queryClient.invalidateQueries({ queryKey });
  }, [overlayRevision, loaded]); // eslint-disable-line react-hooks/exhaustive-deps
  const options = {
    onMutate: () => setError(null),
    onSuccess: (data: OverlayListDto) => queryClient.setQueryData(queryKey, data),
    onError: (e: { message: string }) => setError(e.message),
  };
  // mutate and mutateAsync keep their identity across renders, so the actions do too.
  const { mutate: excludeMessage } = useMutation(trpc.overlays.excludeMessage.mutationOptions(options));
  const { mutate: excludeRound } = useMutation(trpc.overlays.excludeRound.mutationOptions(options));
  const { mutateAsync: pin } = useMutation(trpc.overlays.pin.mutationOptions(options));
  const { mutateAsync: replaceResult } = useMutation(trpc.overlays.replaceResult.mutationOptions(options));
  const { mutate: remove } = useMutation(trpc.overlays.remove.mutationOptions(options));
  const view = useMemo(() => viewOverlays(list.data), [list.data]);
  const actions = useMemo(
    () => ({
      excludeMessage: (messageId: string) => excludeMessage({ sessionId, messageId }),
      excludeRound: (callId: string) => excludeRound({ sessionId, callId }),
      pin: (text: string) => pin({ sessionId, text }).then(succeeded, failed),
      replaceResult: (callId: string, text: string) =>
        replaceResult({ sessionId, callId, text }).then(succeeded, failed),
      remove: (overlayId: string) => remove({ overlayId }),
    }),
    [sessionId, excludeMessage, excludeRound, pin, replaceResult, remove],
  );
  return { view, revision: Math.max(overlayRevision, loaded ?? 0), actions, error };
}

export type OverlayActions = ReturnType<typeof useOverlays>["actions"];
