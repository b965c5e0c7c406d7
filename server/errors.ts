// One error type for the whole server. A code is `type:surface` ("not_found:session"): the type
// decides the HTTP / tRPC status, the surface says where it happened. The message is written for
// the user; `cause` is for the log only and never leaves the server. The mappers below are the one
// place that decides what a browser sees for any thrown value.
import { TRPCError } from "@trpc/server";

export const errorTypes = {
  bad_request: { status: 400, trpc: "BAD_REQUEST" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  conflict: { status: 409, trpc: "CONFLICT" },
  rate_limit: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  internal: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
} as const;

export type ErrorType = keyof typeof errorTypes;
export type Surface =
  | "auth"
  | "session"
  | "turn"
  | "provider"
  | "tools"
  | "connector"
  | "persona"
  | "approval"
  | "database"
  | "config"
  | "api";
export type ErrorCode = `${ErrorType}:${Surface}`;

const defaultMessages: Partial<Record<ErrorCode, string>> & Record<ErrorType, string> = {
  bad_request: "The request was not valid.",
  unauthorized: "You need to sign in first.",
  forbidden: "You do not have access to this.",
  not_found: "That could not be found.",
  conflict: "That conflicts with the current state; reload and try again.",
  rate_limit: "Too many requests; wait a moment and try again.",
  unavailable: "A service Patchbay depends on is unavailable; try again shortly.",
  internal: "Something went wrong on the server.",
  "not_found:session": "That chat session does not exist or is not yours.",
  "unauthorized:auth": "You need to sign in first.",
  "not_found:turn": "That turn does not exist or is not yours.",
  "not_found:connector": "That connector does not exist or is not available to you.",
  "not_found:persona": "That persona does not exist or is not yours.",
  "not_found:approval": "That tool approval does not exist or is not yours.",
  "conflict:turn": "An answer is still being written in this chat. Stop it or wait for it to finish.",
};

export class AppError extends Error {
  override name = "AppError";
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly surface: Surface;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown }) {
    const [type, surface] = code.split(":") as [ErrorType, Surface];
    super(message ?? defaultMessages[code] ?? defaultMessages[type], options);
    this.code = code;
    this.type = type;
    this.surface = surface;
  }

  get status(): number {
    return errorTypes[this.type].status;
  }
}

/** Any thrown value as an AppError; unknown errors become `internal:api` with the original as cause. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal:api", undefined, { cause: error });
}

/** Logs what the operator needs (cause included) for server-side failures; silent for user errors. */
export function logAppError(error: AppError, where: string): void {
  if (error.status >= 500) console.error(`[patchbay] ${where}: ${error.code}`, error.cause ?? error);
}

/** The tRPC error a procedure throws for any value; the AppError rides along as cause for the formatter. */
export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  const appError = toAppError(error);
  return new TRPCError({ code: errorTypes[appError.type].trpc, message: appError.message, cause: appError });
}

/** A JSON Response for route handlers. */
export function toResponse(error: unknown): Response {
  const appError = toAppError(error);
  return Response.json({ code: appError.code, message: appError.message }, { status: appError.status });
}
