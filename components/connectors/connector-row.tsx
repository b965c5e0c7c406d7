"use client";
// One connector in Settings → Connectors, when it is not being edited: its name, where it comes from
// and its URL; "Test connection" with the outcome (the tools it lists, or why it could not connect);
// Edit and Remove for the user's own (Remove asks first, in the row); and, for a connector with
// per-user accounts, the user's account control.
import { Button } from "@/components/ui/button.tsx";

import { OAuthAccountControl } from "./oauth-account-control.tsx";

export type Check =
  { ok: true; tools: { name: string }[] } | { ok: false; error: string; isAuthorizationNeeded: boolean };

type OAuthStatus = Parameters<typeof OAuthAccountControl>[0]["status"];

type Props = {
  connector: { id: string; name: string; source: string; transport: string; url?: string | null; isReadOnly: boolean };
  isChecking: boolean;
  onCheck: () => void;
  onEdit: () => void;
  removal: { isAsked: boolean; isPending: boolean; ask: () => void; keep: () => void; confirm: () => void };
  oauthStatus: OAuthStatus | undefined;
  check: Check | undefined;
};

export function ConnectorRow({ connector, isChecking, onCheck, onEdit, removal, oauthStatus, check }: Props) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-medium">
            {connector.name}{" "}
            <span className="text-xs text-zinc-500">
              {connector.source === "admin" ? "set up by the administrator" : connector.transport}
            </span>
          </p>
          {connector.url && <p className="truncate text-xs text-zinc-500">{connector.url}</p>}
        </div>
        <Button variant="secondary" disabled={isChecking} onClick={onCheck}>
          Test connection
        </Button>
        {!connector.isReadOnly && (
          <>
            <Button variant="ghost" onClick={onEdit}>
              Edit
            </Button>
            <Button variant="ghost" onClick={removal.ask}>
              Remove
            </Button>
          </>
        )}
      </div>
      {removal.isAsked && (
        <div
          role="group"
          aria-label={`Remove ${connector.name}?`}
          className="flex flex-wrap items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          <p className="min-w-0 flex-1">Remove {connector.name}? Chats that use it lose its tools.</p>
          <Button variant="danger" disabled={removal.isPending} onClick={removal.confirm}>
            Remove
          </Button>
          <Button variant="ghost" onClick={removal.keep} autoFocus>
            Keep
          </Button>
        </div>
      )}
      {oauthStatus && (
        <OAuthAccountControl connectorId={connector.id} connectorName={connector.name} status={oauthStatus} />
      )}
      {check && <CheckResult check={check} />}
    </>
  );
}

function CheckResult({ check }: { check: Check }) {
  if (!check.ok && check.isAuthorizationNeeded)
    return (
      <p role="alert" className="text-sm text-amber-800 dark:text-amber-200">
        Authorization needed: connect your account to use this connector.
      </p>
    );
  if (!check.ok)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        Could not connect: {check.error}
      </p>
    );
  return (
    <p className="text-sm text-green-800 [overflow-wrap:anywhere] dark:text-green-300" data-testid="connector-check">
      Connected — {check.tools.length} tools: {check.tools.map((tool) => tool.name).join(", ")}
    </p>
  );
}
