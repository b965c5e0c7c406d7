"use client";
// The changes a user makes in the chat's Tools panel, one mutation each: a connector on or off, its
// policy, a tool on or off, a tool's policy override. `isBusy` while any of them runs; `options`
// says what follows a success or a failure.
import { useMutation } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { SessionConnectorDto } from "@/server/mcp/session-tools.ts";

import type { ConnectorActions } from "./connector-item.tsx";

type Options = { onSuccess: () => void; onError: (error: { message: string }) => void };

export function useConnectorActions(sessionId: string, options: Options) {
  const trpc = useTRPC();
  const setConnector = useMutation(trpc.tools.setConnector.mutationOptions(options));
  const setTool = useMutation(trpc.tools.setTool.mutationOptions(options));
  const setConnectorPolicy = useMutation(trpc.policy.setConnectorPolicy.mutationOptions(options));
  const setToolPolicy = useMutation(trpc.policy.setToolPolicy.mutationOptions(options));
  const isBusy = setConnector.isPending || setTool.isPending || setConnectorPolicy.isPending || setToolPolicy.isPending;
  const actionsFor = ({ id: connectorId }: SessionConnectorDto): ConnectorActions => ({
    setEnabled: (enabled) => setConnector.mutate({ sessionId, connectorId, enabled }),
    setPolicy: (policy) => setConnectorPolicy.mutate({ sessionId, connectorId, policy }),
    setToolEnabled: (toolName, enabled) => setTool.mutate({ sessionId, connectorId, toolName, enabled }),
    setToolPolicy: (toolName, policy) => setToolPolicy.mutate({ sessionId, connectorId, toolName, policy }),
  });
  return { isBusy, actionsFor };
}
