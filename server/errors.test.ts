// The error contract: a code `type:surface` decides the status, the user sees a written message,
// and the cause (a database error, a stack, a connection string) never reaches a tRPC client or an
// HTTP response body.
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";

import { AppError, errorTypes, toAppError, toResponse, toTRPCError, type ErrorCode } from "./errors.ts";

const SECRET_MESSAGE = "connect ECONNREFUSED postgres://patchbay:hunter2@db.internal:5432/patchbay";
const GENERIC_MESSAGE = "Something went wrong on the server.";

describe("AppError", () => {
  it("splits its code into type and surface and derives the HTTP status from the type", () => {
    const error = new AppError("not_found:session");
    expect(error.type).toBe("not_found");
    expect(error.surface).toBe("session");
    expect(error.status).toBe(404);
    expect(error.name).toBe("AppError");
    expect(error).toBeInstanceOf(Error);
  });

  it.each([
    ["bad_request:api", 400],
    ["unauthorized:auth", 401],
    ["forbidden:session", 403],
    ["conflict:session", 409],
    ["rate_limit:api", 429],
    ["unavailable:database", 503],
    ["internal:config", 500],
  ] as const)("%s has status %i", (code, status) => {
    expect(new AppError(code).status).toBe(status);
  });

  it("uses the surface-specific default message when there is one, else the type's", () => {
    expect(new AppError("not_found:session").message).toBe("That chat session does not exist or is not yours.");
    expect(new AppError("not_found:api").message).toBe("That could not be found.");
    expect(new AppError("unauthorized:auth").message).toBe("You need to sign in first.");
    expect(new AppError("internal:database").message).toBe(GENERIC_MESSAGE);
  });

  it("keeps an explicit message and carries the cause", () => {
    const cause = new Error(SECRET_MESSAGE);
    const error = new AppError("conflict:session", "A turn is already running.", { cause });
    expect(error.message).toBe("A turn is already running.");
    expect(error.cause).toBe(cause);
  });
});

describe("toAppError", () => {
  it("passes an AppError through unchanged", () => {
    const error = new AppError("forbidden:session");
    expect(toAppError(error)).toBe(error);
  });

  it("wraps anything else as internal:api with the original as cause", () => {
    const cause = new Error(SECRET_MESSAGE);
    const error = toAppError(cause);
    expect(error.code).toBe("internal:api");
    expect(error.message).toBe(GENERIC_MESSAGE);
    expect(error.cause).toBe(cause);
  });
});

describe("toTRPCError", () => {
  it.each([
    ["bad_request:api", "BAD_REQUEST"],
    ["unauthorized:auth", "UNAUTHORIZED"],
    ["forbidden:session", "FORBIDDEN"],
    ["not_found:session", "NOT_FOUND"],
    ["conflict:session", "CONFLICT"],
    ["rate_limit:api", "TOO_MANY_REQUESTS"],
    ["unavailable:database", "SERVICE_UNAVAILABLE"],
    ["internal:api", "INTERNAL_SERVER_ERROR"],
  ] as const)("maps %s to %s with the AppError as cause", (code: ErrorCode, trpcCode) => {
    const appError = new AppError(code);
    const mapped = toTRPCError(appError);
    expect(mapped).toBeInstanceOf(TRPCError);
    expect(mapped.code).toBe(trpcCode);
    expect(mapped.message).toBe(appError.message);
    expect(mapped.cause).toBe(appError);
  });

  it("covers every error type", () => {
    for (const type of Object.keys(errorTypes)) {
      expect(toTRPCError(new AppError(`${type}:api` as ErrorCode)).code).toBe(
        errorTypes[type as keyof typeof errorTypes].trpc,
      );
    }
  });

  it("turns an unknown error into INTERNAL_SERVER_ERROR with the generic message only", () => {
    const mapped = toTRPCError(new Error(SECRET_MESSAGE));
    expect(mapped.code).toBe("INTERNAL_SERVER_ERROR");
    expect(mapped.message).toBe(GENERIC_MESSAGE);
    expect(mapped.message).not.toContain("postgres://");
    expect(mapped.cause).toBeInstanceOf(AppError);
    expect((mapped.cause as AppError).code).toBe("internal:api");
  });

  it("turns a thrown non-Error (a string) into the generic internal error too", () => {
    const mapped = toTRPCError(SECRET_MESSAGE);
    expect(mapped.code).toBe("INTERNAL_SERVER_ERROR");
    expect(mapped.message).toBe(GENERIC_MESSAGE);
  });

  it("leaves a TRPCError as it is", () => {
    const original = new TRPCError({ code: "PARSE_ERROR", message: "bad json" });
    expect(toTRPCError(original)).toBe(original);
  });
});

describe("toResponse", () => {
  it("answers an AppError with its status and a JSON body of code and message", async () => {
    const response = toResponse(new AppError("forbidden:session", "Not your session.", { cause: SECRET_MESSAGE }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ code: "forbidden:session", message: "Not your session." });
  });

  it("answers an unknown error with 500 and the generic message, leaking nothing of the cause", async () => {
    const response = toResponse(new Error(SECRET_MESSAGE));
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ code: "internal:api", message: GENERIC_MESSAGE });
    expect(body).not.toContain("hunter2");
    expect(body).not.toContain("postgres://");
  });
});
