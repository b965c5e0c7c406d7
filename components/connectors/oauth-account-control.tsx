"use client";
// The signed-in user's own account on one connector (MCP OAuth): its state in words, and Connect
// account / Reconnect / Disconnect account. Connecting asks the server for the authorization URL;
// in settings the page then goes there (and the callback comes back to settings), in a chat the
// URL opens as a link in a new tab so the chat stays put, and the state refreshes when the user
// comes back. Tokens never reach the browser: only the status and the URL do.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import { Button } from "@/components/ui/button.tsx";
import type { OAuthStatus } from "@/server/mcp/oauth-accounts.ts";

type Props = {
  connectorId: string;
  connectorName: string;
  status: OAuthStatus;
  /** In a chat: offer the sign-in page as a new-tab link instead of leaving the page. */
  opensInNewTab?: boolean;
};

const statusTexts: Record<Exclude<OAuthStatus, "not_required">, string> = {
  connected: "Your account is connected.",
  needs_authorization: "Sign-in needed: connect your account to use its tools.",
  available: "No account connected (only needed if the server asks you to sign in).",
};

export function OAuthAccountControl({ connectorId, connectorName, status, opensInNewTab = false }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [signInUrl, setSignInUrl] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.connectors.oauthStatus.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.tools.state.queryKey() }),
    ]);
  const onError = (e: { message: string }) => setError(e.message);
  const connect = useMutation(
    trpc.connectors.connectOAuth.mutationOptions({
      onError,
      onSuccess: ({ authorizationUrl }) => {
        setError(null);
        if (opensInNewTab) setSignInUrl(authorizationUrl);
        else window.location.assign(authorizationUrl);
      },
    }),
  );
  const disconnect = useMutation(
    trpc.connectors.disconnectOAuth.mutationOptions({
      onError,
      onSuccess: () => (setError(null), setSignInUrl(null), refresh()),
    }),
  );
  if (status === "not_required") return null;
  const isBusy = connect.isPending || disconnect.isPending;
  const connectLabel = status === "connected" ? "Reconnect" : "Connect account";

  return (
    <div className="flex flex-col gap-1 text-xs" data-testid="oauth-account">
      <div className="flex flex-wrap items-center gap-2">
        <span
          className={
            status === "needs_authorization"
              ? "font-medium text-amber-800 dark:text-amber-200"
              : status === "connected"
                ? "text-green-800 dark:text-green-300"
                : "text-zinc-600 dark:text-zinc-400"
          }
        >
          {statusTexts[status]}
        </span>
        <Button
          variant={status === "needs_authorization" ? "primary" : "secondary"}
          className="px-2 py-1 text-xs"
          aria-label={`${connectLabel} for ${connectorName}`}
          disabled={isBusy}
          onClick={() => connect.mutate({ id: connectorId })}
        >
          {connectLabel}
        </Button>
        {status === "connected" && (
          <Button
            variant="ghost"
            className="px-2 py-1 text-xs"
            aria-label={`Disconnect account for ${connectorName}`}
            disabled={isBusy}
            onClick={() => disconnect.mutate({ id: connectorId })}
          >
            Disconnect account
          </Button>
        )}
      </div>
      {signInUrl && <SignInLink url={signInUrl} connectorName={connectorName} onOpen={() => setSignInUrl(null)} />}
      {error && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/** In a chat: the authorization URL as a new-tab link, so the chat stays put. */
function SignInLink({ url, connectorName, onOpen }: { url: string; connectorName: string; onOpen: () => void }) {
  return (
    <p>
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className="font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300"
        onClick={onOpen}
      >
        Open the sign-in page for {connectorName}
      </a>{" "}
      (new tab); come back here when you are done.
    </p>
  );
}
