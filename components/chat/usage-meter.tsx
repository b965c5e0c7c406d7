"use client";
// What is left of the user's allowance on the server's own keys (USER_TOKENS_PER_DAY,
// USER_REQUESTS_PER_MINUTE), shown under the model picker while a server model is chosen and a
// limit is set. Refreshed every few seconds and after each send; the refusal itself comes from the
// server (server/policy/usage-limits.ts), this is only the heads-up.
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

const number = new Intl.NumberFormat("en-US");

export function UsageMeter({ isServerKey }: { isServerKey: boolean }) {
  const trpc = useTRPC();
  const usage = useQuery({ ...trpc.usage.mine.queryOptions(), refetchInterval: 5_000 });
  const data = usage.data;
  if (!isServerKey || !data) return null;
  const { limits } = data;
  if (limits.tokensPerDay === null && limits.requestsPerMinute === null) return null;
  const parts: string[] = [];
  if (limits.tokensPerDay !== null && data.tokensLeft !== null) {
    parts.push(
      `${number.format(data.tokensLeft)} of ${number.format(limits.tokensPerDay)} tokens left today (resets 00:00 UTC)`,
    );
  }
  if (limits.requestsPerMinute !== null && data.requestsLeftThisMinute !== null) {
    parts.push(`${data.requestsLeftThisMinute} of ${limits.requestsPerMinute} requests left this minute`);
  }
  const isOut = data.tokensLeft === 0 || data.requestsLeftThisMinute === 0;
  return (
    <p
      role="status"
      data-testid="usage-meter"
      className={`text-xs ${isOut ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"}`}
    >
      This server&apos;s keys: {parts.join(" · ")}
    </p>
  );
}
