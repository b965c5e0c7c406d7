"use client";
// The changes a user makes in the chat's Tools panel, one mutation each: a connector on or off, its
// policy, all its tools on or off, a tool on or off, a tool's policy override. `isBusy` while any of
// them runs; `actions` keeps its identity across renders; `options` says what follows a success or a failure.
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";

import { useTRPC } from "@/components/providers/trpc-provider.tsx";

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
  // `mutate` keeps its identity (TanStack Query), so the actions do too.
  const [connectorMutate, allToolsMutate, toolMutate] = [setConnector.mutate, setAllTools.mutate, setTool.mutate];
  const [connectorPolicyMutate, toolPolicyMutate] = [setConnectorPolicy.mutate, setToolPolicy.mutate];
  const actions = useMemo(
    (): ConnectorActions => ({
      setEnabled: (connectorId, enabled) => connectorMutate({ sessionId, connectorId, enabled }),
      setPolicy: (connectorId, policy) => connectorPolicyMutate({ sessionId, connectorId, policy }),
      setAllTools: (connectorId, enabled) => allToolsMutate({ sessionId, connectorId, enabled }),
      setToolEnabled: (connectorId, toolName, enabled) => toolMutate({ sessionId, connectorId, toolName, enabled }),
      setToolPolicy: (connectorId, toolName, policy) => toolPolicyMutate({ sessionId, connectorId, toolName, policy }),
    }),
    [sessionId, connectorMutate, connectorPolicyMutate, allToolsMutate, toolMutate, toolPolicyMutate],
  );
  return { isBusy, actions };
}
