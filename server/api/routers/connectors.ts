// The `connectors` router: the MCP servers a signed-in user can use — the admin's (read-only) and
// their own remote ones. Procedures parse input, take the user from the context and make one call
// into server/mcp/connectors.ts, where ownership, the URL guard and secret sealing live. Header
// values go in and never come back out: DTOs carry header names only.
import { z } from "zod";

import {
  createConnectorInputSchema,
  createUserConnector,
  deleteUserConnector,
  listConnectors,
  updateConnectorInputSchema,
  updateUserConnector,
} from "../../mcp/connectors.ts";
import { checkConnector } from "../../mcp/connector-check.ts";
import { getMcpRuntime } from "../../mcp/instance.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const connectorId = z.string().min(1).max(64);

export const connectorsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listConnectors(ctx.db, ctx.user.id)),

  create: protectedProcedure
    .input(createConnectorInputSchema)
    .mutation(({ ctx, input }) => createUserConnector(ctx.db, ctx.user.id, input)),

  update: protectedProcedure
    .input(updateConnectorInputSchema.extend({ id: connectorId }))
    .mutation(({ ctx, input: { id, ...patch } }) => updateUserConnector(ctx.db, ctx.user.id, id, patch)),

  /** Connects and lists the connector's tools ("Test connection"). */
  check: protectedProcedure
    .input(z.object({ id: connectorId }))
    .mutation(async ({ ctx, input }) => checkConnector(await getMcpRuntime(), ctx.user.id, input.id)),

  delete: protectedProcedure.input(z.object({ id: connectorId })).mutation(async ({ ctx, input }) => {
    await deleteUserConnector(ctx.db, ctx.user.id, input.id);
    return { id: input.id };
  }),
});
