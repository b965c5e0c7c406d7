// In turn details, under a model request: what the context overlays changed in it (the messages and
// tool rounds left out, the notes pinned, the results replaced by a summary) and their revision.
import type { TurnRequestDto } from "@/server/session/history.ts";

export function RequestOverlays({ request }: { request: TurnRequestDto }) {
  const overlays = request.overlays;
  if (!overlays) return null;
  const lines = [
    ["Excluded", overlays.excluded],
    ["Pinned", overlays.pinned],
    ["Replaced", overlays.replaced],
  ] as const;
  return (
    <div className="flex flex-col gap-0.5 text-zinc-700 dark:text-zinc-300" data-testid="request-overlays">
      <span className="text-zinc-500">Context overlays (revision {request.overlayRevision ?? 0}):</span>
      {lines.map(([what, entries]) =>
        entries.length > 0 ? (
          <span key={what} data-testid={`request-${what.toLowerCase()}`}>
            {what}: {entries.map((entry) => entry.label).join("; ")}
          </span>
        ) : null,
      )}
    </div>
  );
}
