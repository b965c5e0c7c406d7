// The `policy` router: what a chat may do with its tools. Connector and per-tool policies (allow /
// ask / deny), personas (a system prompt plus a tool allowlist, chosen per chat) and the user's
// decision on a tool call waiting for approval. Procedures parse and make one call into
// server/policy, where ownership is enforced in the queries themselves.
import { z } from "zod";

import type { Db } from "../../db/client.ts";
import { getMcpRuntime } from "../../session/app-runtime.ts";
import { decideApproval } from "../../policy/approvals.ts";
import { setConnectorPolicy, setToolPolicy } from "../../policy/connector-policy.ts";
import {
  createPersona,
  deletePersona,
  listPersonas,
  personaInputSchema,
  setSessionPersona,
  updatePersona,
} from "../../policy/personas.ts";
import { toolPolicySchema } from "../../core/tool-policy.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

const id = z.string().min(1).max(64);
const toolName = z.string().min(1).max(200);
const decision = z.enum(["approve", "deny"]);

async function registryDeps(db: Db) {
  return { db, registry: (await getMcpRuntime()).registry };
}

const personasRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listPersonas(ctx.db, ctx.user.id)),

  create: protectedProcedure
    .input(personaInputSchema)
    .mutation(async ({ ctx, input }) => createPersona(await registryDeps(ctx.db), ctx.user.id, input)),

  update: protectedProcedure
    .input(personaInputSchema.partial().extend({ id }))
    .mutation(async ({ ctx, input: { id: personaId, ...patch } }) =>
      updatePersona(await registryDeps(ctx.db), ctx.user.id, personaId, patch),
    ),

  delete: protectedProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await deletePersona(await registryDeps(ctx.db), ctx.user.id, input.id);
    return { id: input.id };
  }),
});

export const policyRouter = createTRPCRouter({
  setConnectorPolicy: protectedProcedure
    .input(z.object({ sessionId: id, connectorId: id, policy: toolPolicySchema }))
    .mutation(async ({ ctx, input }) => setConnectorPolicy(await registryDeps(ctx.db), ctx.user.id, input)),

  /** `policy: null` clears the tool's own policy: it follows its connector's again. */
  setToolPolicy: protectedProcedure
    .input(z.object({ sessionId: id, connectorId: id, toolName, policy: toolPolicySchema.nullable() }))
    .mutation(async ({ ctx, input }) => setToolPolicy(await registryDeps(ctx.db), ctx.user.id, input)),

  personas: personasRouter,

  setSessionPersona: protectedProcedure
    .input(z.object({ sessionId: id, personaId: id.nullable() }))
    .mutation(async ({ ctx, input }) => setSessionPersona(await registryDeps(ctx.db), ctx.user.id, input)),

  decideApproval: protectedProcedure
    .input(
      z.union([
        z.object({ approvalId: id, decision }),
        z.object({ turnId: id, callId: z.string().min(1).max(64), decision }),
      ]),
    )
    .mutation(({ ctx, input: { decision: choice, ...target } }) => decideApproval(ctx.db, ctx.user.id, target, choice)),
});
