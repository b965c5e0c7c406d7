"use client";
// The notice the Tools panel shows while a change of the tools is pending for the streaming answer:
// it applies on the answer's next request; "Apply now" restarts the answer with the new tools, "Keep
// for next request" dismisses the notice.
import { Button } from "@/components/ui/button.tsx";

type Props = {
  isApplying: boolean;
  onApplyNow: () => void;
  onKeep: () => void;
  /** What is pending, in words (the context overlays' notice says so). */
  label?: string;
};

export function PendingChangeNotice({ isApplying, onApplyNow, onKeep, label }: Props) {
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-md bg-amber-50 p-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>{label ?? "Pending: applies on the next request of this answer."}</p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onApplyNow} disabled={isApplying}>
          Apply now
        </Button>
        <Button variant="ghost" onClick={onKeep}>
          Keep for next request
        </Button>
      </div>
    </div>
  );
}
