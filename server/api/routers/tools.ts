// The `tools` router: a chat's connector panel — list connectors, health, tools (capped per
// connector, searchable with `query`), the registry revision and the provider-limit warning; switch connectors, single tools and built-ins on or off. A switch bumps the revision and applies
// from the next model request; `chat.applyNow` restarts the streaming turn on it instead. Each
// connector also says how many of its tools are on, and `setAllTools` switches all of them (tool-bulk.ts).
import { z } from "zod";

import { getMcpRuntime } from "../../session/app-runtime.ts";
import { setBuiltinToolEnabled } from "../../mcp/builtin-switch.ts";
import { getSessionTools, setConnectorEnabled, setToolEnabled } from "../../mcp/session-tools.ts";
import { defaultModelChoice } from "../../session/app-runtime.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";
import { setAllToolsEnabled, withEnabledCounts } from "./tool-bulk.ts";

const id = z.string().min(1).max(64);

export const toolsRouter = createTRPCRouter({
  state: protectedProcedure
    .input(z.object({ sessionId: id, query: z.string().max(200).optional() }))
    .query(async ({ ctx, input }) => {
      const runtime = await getMcpRuntime();
      const tools = await getSessionTools(runtime, ctx.user.id, input.sessionId, {
        query: input.query,
        defaultProvider: defaultModelChoice()?.provider ?? null,
      });
      return withEnabledCounts(runtime, ctx.user.id, input.sessionId, tools);
    }),

  setConnector: protectedProcedure
    .input(z.object({ sessionId: id, connectorId: id, enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => setConnectorEnabled(await getMcpRuntime(), ctx.user.id, input)),

  setTool: protectedProcedure
    .input(z.object({ sessionId: id, connectorId: id, toolName: z.string().min(1).max(200), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => setToolEnabled(await getMcpRuntime(), ctx.user.id, input)),

  /** Switches a built-in tool (`builtin.attempt_completion`) on or off in this chat: a tool change like any other. */
  setBuiltinTool: protectedProcedure
    .input(z.object({ sessionId: id, name: z.string().min(1).max(200), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => setBuiltinToolEnabled(await getMcpRuntime(), ctx.user.id, input)),

  setAllTools: protectedProcedure
    .input(z.object({ sessionId: id, connectorId: id, enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => setAllToolsEnabled(await getMcpRuntime(), ctx.user.id, input)),
});
