"use client";
// The changes a user makes in the chat's Tools panel, one mutation each: a connector on or off, its
// policy, all its tools on or off, a tool on or off, a tool's policy override. `isBusy` while any of
// them runs; `options` says what follows a success or a failure.
import { useMutation } from "@tanstack/react-query";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";
import type { SessionConnectorDto } from "@/server/mcp/session-tools.ts";

import type { ConnectorActions } from "./connector-item.tsx";

type Options = { onSuccess: () => void; onError: (error: { message: string }) => void };

export function useConnectorActions(sessionId: string, options: Options) {
  const trpc = useTRPC();
  const setConnector = useMutation(trpc.tools.setConnector.mutationOptions(options));
  const setAllTools = useMutation(trpc.tools.setAllTools.mutationOptions(options));
  const setTool = useMutation(trpc.tools.setTool.mutationOptions(options));
  const setConnectorPolicy = useMutation(trpc.policy.setConnectorPolicy.mutationOptions(options));
  const setToolPolicy = useMutation(trpc.policy.setToolPolicy.mutationOptions(options));
  const isBusy = [setConnector, setAllTools, setTool, setConnectorPolicy, setToolPolicy].some((m) => m.isPending);
  const actionsFor = ({ id: connectorId }: Pick<SessionConnectorDto, "id">): ConnectorActions => ({
    setEnabled: (enabled) => setConnector.mutate({ sessionId, connectorId, enabled }),
    setPolicy: (policy) => setConnectorPolicy.mutate({ sessionId, connectorId, policy }),
    setAllTools: (enabled) => setAllTools.mutate({ sessionId, connectorId, enabled }),
    setToolEnabled: (toolName, enabled) => setTool.mutate({ sessionId, connectorId, toolName, enabled }),
    setToolPolicy: (toolName, policy) => setToolPolicy.mutate({ sessionId, connectorId, toolName, policy }),
  });
  return { isBusy, actionsFor };
}
