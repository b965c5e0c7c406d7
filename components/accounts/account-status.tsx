"use client";
// What an account row says about an account: who it is connected as (or its endpoint) and plan, its
// models, when its token expires (or expired), whether it needs reconnecting, and its last error
// whenever there is one.
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";

import type { AppRouter } from "@/server/api/root.ts";

export type Account = inferRouterOutputs<AppRouter>["accounts"]["list"][number];

function expiryText(expiresAt: Date | string, now: number): string {
  const at = new Date(expiresAt);
  return at.getTime() > now
    ? `Token valid until ${at.toLocaleString()}`
    : `Token expired ${at.toLocaleString()}; it is renewed on next use`;
}

export function AccountStatus({ account }: { account: Account }) {
  const [now] = useState(() => Date.now()); // when the row was first shown: enough to say "expired"
  const needsReconnect = account.status === "reconnect_needed";
  return (
    <>
      {(account.identity ?? account.baseUrl) && (
        <p className="truncate text-xs text-zinc-500">
          {account.identity ? `Connected as ${account.identity}` : account.baseUrl}
          {account.plan && ` · ${account.plan} plan`}
        </p>
      )}
      <p className="text-xs text-zinc-500">
        {account.models.length} models: {account.models.slice(0, 6).join(", ")}
        {account.models.length > 6 && "…"}
      </p>
      {account.expiresAt && !needsReconnect && (
        <p className="text-xs text-zinc-500">{expiryText(account.expiresAt, now)}</p>
      )}
      {needsReconnect && (
        <p role="status" className="text-sm font-medium text-amber-800 dark:text-amber-300">
          Reconnect needed: sign in again with Reconnect; this account and its chats are kept.
        </p>
      )}
      {account.lastError && (
        <p className="text-sm text-red-800 dark:text-red-300" data-testid="account-last-error">
          Last error: {account.lastError}
        </p>
      )}
    </>
  );
}
