// tRPC setup: the request context (database + signed-in user), the error formatter that decides
// what a client sees, and the two procedure kinds. Routers live in ./routers.
// Every error a client sees — a procedure's, an unreadable request, an unknown path — goes through
// the formatter, which maps it with toAppError() (server/errors.ts): the HTTP status and tRPC code
// of its type, a message in words, the app code, and for bad input the issues by field
// (`zodIssues`). Never a raw database or provider error. (The chat's live event stream is its own
// route, server/api/chat-events.ts, with the same mapping.)
import { initTRPC } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import superjson from "superjson";

import type { SessionUser } from "../auth/session.ts";
import type { Db } from "../db/client.ts";
import { AppError, errorTypes, logAppError, toAppError, toTRPCError } from "../errors.ts";
import { rejectUnsafeText } from "../input-hygiene.ts";

/** `requestOrigin`: the origin the browser used (for redirects back to Patchbay), when known. */
export type Context = { db: Db; user: SessionUser | null; requestOrigin?: string | null };

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error, path }) {
    const appError = toAppError(error);
    logAppError(appError, `trpc ${path ?? "(no procedure)"}`);
    const { status, trpc } = errorTypes[appError.type];
    return {
      message: appError.message,
      code: TRPC_ERROR_CODES_BY_KEY[trpc],
      data: {
        code: trpc,
        httpStatus: status,
        path: shape.data.path,
        appCode: appError.code,
        zodIssues: appError.issues,
      },
    };
  },
});

/** Turns any thrown value into a TRPCError carrying an AppError (what server-side callers see too). */
const errorMapping = t.middleware(async ({ next }) => {
  const result = await next();
  return result.ok ? result : { ...result, error: toTRPCError(result.error) };
});

/** Refuses NUL bytes and lone surrogates anywhere in the input, before any schema or database sees it. */
const inputHygiene = t.middleware(async ({ getRawInput, next }) => {
  rejectUnsafeText(await getRawInput());
  return next();
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(errorMapping).use(inputHygiene);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("unauthorized:auth");
  return next({ ctx: { ...ctx, user: ctx.user } });
});
