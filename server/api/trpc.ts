// tRPC setup: the request context (database + signed-in user), the error formatter that decides
// what a client sees (user-facing message, app error code, zod issues for bad input — never a raw
// database or provider error), and the two procedure kinds. Routers live in ./routers.
import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";

import type { SessionUser } from "../auth/session.ts";
import type { Db } from "../db/client.ts";
import { AppError, logAppError, toAppError, toTRPCError } from "../errors.ts";

/** `requestOrigin`: the origin the browser used (for redirects back to Patchbay), when known. */
export type Context = { db: Db; user: SessionUser | null; requestOrigin?: string | null };

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const appError = cause instanceof AppError ? cause : undefined;
    const zodIssues = cause instanceof ZodError ? cause.issues.map(({ path, message }) => ({ path, message })) : null;
    const isInternal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      message: isInternal && !appError ? toAppError(cause).message : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        appCode: appError?.code ?? (zodIssues ? "bad_request:api" : null),
        zodIssues,
      },
    };
  },
});

/** Turns any thrown value into a TRPCError carrying an AppError, and logs server-side failures. */
const errorMapping = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok && !(result.error.cause instanceof ZodError)) {
    const mapped = toTRPCError(result.error.cause ?? result.error);
    if (mapped.cause instanceof AppError) logAppError(mapped.cause, `trpc ${path}`);
    return { ...result, error: mapped };
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(errorMapping);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("unauthorized:auth");
  return next({ ctx: { ...ctx, user: ctx.user } });
});
