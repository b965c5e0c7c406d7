// One error type for the whole server. A code is `type:surface` ("not_found:session"): the type
// decides the HTTP / tRPC status, the surface says where it happened. The message is written for
// the user; `cause` is for the log only and never leaves the server; `issues` (bad input) is
// structured data a form can place beside its fields. toAppError() is the one mapping from any
// thrown value to what a browser sees: tRPC parse and input errors -> 400, sign-in -> 401, not
// yours or missing -> 404, state conflicts -> 409, database down -> 503, anything else -> 500 with
// a generic message (its cause logged). The tRPC formatter, route handlers and the event stream use it.
// An AppError is recognised by its brand (isAppError), never `instanceof`: a production build can
// hold several copies of this class.
import { TRPCError } from "@trpc/server";

import { brandOf, hasBrand } from "./core/brand.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

export const errorTypes = {
  bad_request: { status: 400, trpc: "BAD_REQUEST" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  conflict: { status: 409, trpc: "CONFLICT" },
  too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  rate_limit: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  internal: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
} as const;

export type ErrorType = keyof typeof errorTypes;
export type TrpcErrorCode = TRPCError["code"];
export type Surface =
  | "auth"
  | "session"
  | "turn"
  | "provider"
  | "tools"
  | "connector"
  | "persona"
  | "approval"
  | "question"
  | "overlay"
  | "database"
  | "config"
  | "api";
export type ErrorCode = `${ErrorType}:${Surface}`;
/** One problem with the input: where (field path) and what, in words. */
export type InputIssue = { path: PropertyKey[]; message: string };

const defaultMessages: Partial<Record<ErrorCode, string>> & Record<ErrorType, string> = {
  bad_request: "The request was not valid.",
  unauthorized: "You need to sign in first.",
  forbidden: "You do not have access to this.",
  not_found: "That could not be found.",
  method_not_allowed: "This address does not accept that kind of request.",
  conflict: "That conflicts with the current state; reload and try again.",
  too_large: "The request is too large.",
  rate_limit: "Too many requests; wait a moment and try again.",
  unavailable: "A service Patchbay depends on is unavailable; try again shortly.",
  internal: "Something went wrong on the server.",
  "not_found:session": "That chat session does not exist or is not yours.",
  "unauthorized:auth": "You need to sign in first.",
  "not_found:turn": "That turn does not exist or is not yours.",
  "not_found:connector": "That connector does not exist or is not available to you.",
  "not_found:persona": "That persona does not exist or is not yours.",
  "not_found:approval": "That tool approval does not exist or is not yours.",
  "not_found:question": "That question does not exist or is not yours.",
  "not_found:overlay": "That context overlay does not exist or is not yours.",
  "conflict:turn": "An answer is still being written in this chat. Stop it or wait for it to finish.",
  "unavailable:database": "The database is unavailable right now; Patchbay retries by itself, try again in a moment.",
};

const appErrorBrand = brandOf("AppError");

export class AppError extends Error {
  override name = "AppError";
  readonly [appErrorBrand] = true;
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly surface: Surface;
  /** For bad input: each problem with its field path (also summed up in words in `message`). */
  readonly issues: InputIssue[] | null;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown; issues?: InputIssue[] }) {
    const [type, surface] = code.split(":") as [ErrorType, Surface];
    super(message ?? defaultMessages[code] ?? defaultMessages[type], options);
    this.code = code;
    this.type = type;
    this.surface = surface;
    this.issues = options?.issues ?? null;
  }

  get status(): number {
    return errorTypes[this.type].status;
  }
}

/** True for an AppError made by any copy of this module (Next.js bundles can hold several). */
export function isAppError(value: unknown): value is AppError {
  return hasBrand(value, appErrorBrand);
}

function isTRPCError(value: unknown): value is TRPCError {
  return value instanceof Error && value.name === "TRPCError" && typeof (value as { code?: unknown }).code === "string";
}

/** A zod error from any copy of zod: its `issues` are what we keep. */
function zodIssuesOf(value: unknown): InputIssue[] | null {
  if (!(value instanceof Error) || value.name !== "ZodError") return null;
  const issues = (value as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return null;
  return issues.map((issue: { path?: PropertyKey[]; message?: string }) => ({
    path: (issue.path ?? []).map((part) => (typeof part === "symbol" ? String(part) : part)),
    message: issue.message ?? "is not valid",
  }));
}

/** "title: Title cannot be empty; sessionId: Invalid input: expected string, received number". */
export function describeIssues(issues: InputIssue[]): string {
  const parts = issues.slice(0, 5).map(({ path, message }) => {
    const field = path.length > 0 ? path.map(String).join(".") : "input";
    return `${field}: ${message}`;
  });
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
  return `Check the input — ${parts.join("; ")}${more}.`;
}

/** The refusal of bad input: a message in words naming the fields, the issues kept as data. */
export function inputError(issues: InputIssue[], cause?: unknown): AppError {
  return new AppError("bad_request:api", describeIssues(issues), { cause, issues });
}

const typeByTrpcCode = new Map<string, ErrorType>(
  Object.entries(errorTypes).map(([type, { trpc }]) => [trpc, type as ErrorType]),
);

/** tRPC's own refusals (unreadable body, unknown procedure, wrong method, ...) in our vocabulary. */
function fromTRPCError(error: TRPCError): AppError {
  const cause = error.cause;
  if (cause !== undefined && cause !== error) {
    if (isAppError(cause)) return cause;
    const issues = zodIssuesOf(cause);
    if (issues) return inputError(issues, cause);
    if (isDatabaseUnavailable(cause)) return new AppError("unavailable:database", undefined, { cause });
  }
  if (error.code === "INTERNAL_SERVER_ERROR") return new AppError("internal:api", undefined, { cause: cause ?? error });
  if (error.code === "PARSE_ERROR" || (error.code === "BAD_REQUEST" && cause !== undefined)) {
    // The body or ?input= could not be read (bad JSON, a truncated body, a superjson envelope it refused).
    return new AppError("bad_request:api", "The request could not be read: send JSON in tRPC's superjson envelope.", {
      cause: cause ?? error,
    });
  }
  const type = typeByTrpcCode.get(error.code) ?? (error.code === "UNSUPPORTED_MEDIA_TYPE" ? "bad_request" : undefined);
  if (!type || type === "internal") return new AppError("internal:api", undefined, { cause: error });
  return new AppError(`${type}:api`, error.message || undefined, { cause: error });
}

/**
 * Any thrown value as an AppError: an AppError as it is; tRPC refusals, zod issues and an
 * unreachable database in their own type; anything else `internal:api` with the original as cause.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isTRPCError(error)) return fromTRPCError(error);
  const issues = zodIssuesOf(error);
  if (issues) return inputError(issues, error);
  if (isDatabaseUnavailable(error)) return new AppError("unavailable:database", undefined, { cause: error });
  return new AppError("internal:api", undefined, { cause: error });
}

/** Logs what the operator needs (cause included) for server-side failures; silent for user errors. */
export function logAppError(error: AppError, where: string): void {
  if (error.type === "unavailable") console.warn(`[patchbay] ${where}: ${error.code}`, describeCause(error.cause));
  else if (error.status >= 500) console.error(`[patchbay] ${where}: ${error.code}`, error.cause ?? error);
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

/** The tRPC error a procedure throws for any value; the AppError rides along as cause for the formatter. */
export function toTRPCError(error: unknown): TRPCError {
  const appError = toAppError(error);
  const code = errorTypes[appError.type].trpc;
  if (isTRPCError(error) && error.cause === appError && error.code === code) return error;
  return new TRPCError({ code, message: appError.message, cause: appError });
}

/** A JSON Response for route handlers: `{ code, message }` (and `issues` for bad input). */
export function toResponse(error: unknown, where = "route"): Response {
  const appError = toAppError(error);
  logAppError(appError, where);
  const body = appError.issues
    ? { code: appError.code, message: appError.message, issues: appError.issues }
    : { code: appError.code, message: appError.message };
  return Response.json(body, { status: appError.status });
}
