// The `connectors` router: the MCP servers a signed-in user can use — the admin's (read-only) and
// their own remote ones. Procedures parse input, take the user from the context and make one call
// into server/mcp/connectors.ts, where ownership, the URL guard and secret sealing live. Header
// values go in and never come back out: DTOs carry header names only. The OAuth procedures manage
// the user's own account on a connector (server/mcp/oauth-accounts.ts); tokens never leave the server.
import { z } from "zod";

import { createUserConnector, deleteUserConnector, listConnectors, updateUserConnector } from "../../mcp/connectors.ts";
import { createConnectorInputSchema, updateConnectorInputSchema } from "../../mcp/connector-input.ts";
import { checkConnector } from "../../mcp/connector-check.ts";
import { oauthBaseUrl } from "../../mcp/mcp-runtime.ts";
import { getMcpRuntime } from "../../session/app-runtime.ts";
import { disconnectOAuthAccount, listOAuthStatuses, startOAuthConnection } from "../../mcp/oauth-accounts.ts";
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

  /** The signed-in user's account status on every connector they can see. */
  oauthStatus: protectedProcedure.query(async ({ ctx }) =>
    listOAuthStatuses((await getMcpRuntime()).oauth, ctx.user.id),
  ),

  /** Starts connecting the user's account; the browser opens the returned URL. */
  connectOAuth: protectedProcedure.input(z.object({ id: connectorId })).mutation(async ({ ctx, input }) => {
    const { oauth } = await getMcpRuntime();
    return startOAuthConnection(oauth, ctx.user.id, input.id, oauthBaseUrl(ctx.requestOrigin));
  }),

  /** Forgets the user's tokens for the connector and closes their connection to it. */
  disconnectOAuth: protectedProcedure
    .input(z.object({ id: connectorId }))
    .mutation(async ({ ctx, input }) => disconnectOAuthAccount((await getMcpRuntime()).oauth, ctx.user.id, input.id)),

  delete: protectedProcedure.input(z.object({ id: connectorId })).mutation(async ({ ctx, input }) => {
    await deleteUserConnector(ctx.db, ctx.user.id, input.id);
    return { id: input.id };
  }),
});
