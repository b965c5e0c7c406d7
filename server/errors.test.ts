// The error contract: a code `type:surface` decides the status, the user sees a written message,
// and the cause (a database error, a stack, a connection string) never reaches a tRPC client or an
// HTTP response body.
import { TRPCError } from "@trpc/server";
import { describe, expect, it, vi } from "vitest";

import { z } from "zod";

import {
  AppError,
  errorTypes,
  inputError,
  isAppError,
  toAppError,
  toResponse,
  toTRPCError,
  type ErrorCode,
} from "./errors.ts";

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

  it("maps tRPC's own refusal of an unreadable request to a 400 bad_request:api in words", () => {
    const original = new TRPCError({
      code: "PARSE_ERROR",
      message: "bad json",
      cause: new SyntaxError("Unexpected }"),
    });
    const mapped = toTRPCError(original);
    expect(mapped.code).toBe("BAD_REQUEST");
    expect((mapped.cause as AppError).code).toBe("bad_request:api");
    expect(mapped.message).toBe("The request could not be read: send JSON in tRPC's superjson envelope.");
  });

  it("keeps a TRPCError that already carries its AppError", () => {
    const once = toTRPCError(new AppError("conflict:turn"));
    expect(toTRPCError(once)).toBe(once);
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

describe("one error identity across bundles", () => {
  it("recognises an AppError made by another copy of this module, which instanceof does not", async () => {
    vi.resetModules();
    const copy = await import("./errors.ts");
    const foreign = new copy.AppError("conflict:turn");
    expect(foreign).not.toBeInstanceOf(AppError); // the defect a production build showed
    expect(isAppError(foreign)).toBe(true);
    const mapped = toAppError(foreign);
    expect(mapped).toBe(foreign);
    expect(mapped.status).toBe(409);
    expect(toTRPCError(foreign).code).toBe("CONFLICT");
  });

  it("does not take a look-alike (same name and code, no brand) for an AppError", () => {
    const lookAlike = Object.assign(new Error("x"), { name: "AppError", code: "not_found:session" });
    expect(isAppError(lookAlike)).toBe(false);
    expect(toAppError(lookAlike).code).toBe("internal:api");
  });
});

describe("the mapping from failure to status and words", () => {
  it("turns zod issues into a 400 whose message names each field, keeping the issues as data", () => {
    const parsed = z
      .object({ title: z.string().min(1, { error: "Title cannot be empty" }), count: z.number() })
      .safeParse({ title: "", count: "x" });
    const error = toAppError(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
    expect(error.code).toBe("bad_request:api");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Check the input — title: Title cannot be empty; count: .*number/);
    expect(error.issues).toEqual([
      { path: ["title"], message: "Title cannot be empty" },
      { path: ["count"], message: expect.stringContaining("number") as string },
    ]);
    expect(error.message).not.toContain("[{"); // words, not zod's JSON
  });

  it("says at most five issues and counts the rest", () => {
    const issues = Array.from({ length: 7 }, (_, index) => ({ path: [`f${index}`], message: "is wrong" }));
    expect(inputError(issues).message).toBe(
      "Check the input — f0: is wrong; f1: is wrong; f2: is wrong; f3: is wrong; f4: is wrong (and 2 more).",
    );
  });

  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["a server shutting down", Object.assign(new Error("terminating connection"), { code: "57P01" })],
    ["pg's cut connection", new Error("Connection terminated unexpectedly")],
    ["Prisma's unreachable server", Object.assign(new Error("Can't reach database server"), { code: "P1001" })],
    ["the adapter's kind, as a cause", new Error("query failed", { cause: { kind: "DatabaseNotReachable" } })],
  ])("answers %s with 503 unavailable:database", (_what, cause) => {
    const error = toAppError(cause);
    expect(error.code).toBe("unavailable:database");
    expect(error.status).toBe(503);
    expect(error.message).toContain("database is unavailable");
    expect(toAppError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause })).code).toBe("unavailable:database");
  });

  it("does not blame the database for an HTTP call that failed to connect", () => {
    const fetchFailure = new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    expect(toAppError(fetchFailure).code).toBe("internal:api");
  });

  it.each([
    ["METHOD_NOT_SUPPORTED", 405],
    ["NOT_FOUND", 404],
    ["PAYLOAD_TOO_LARGE", 413],
    ["UNAUTHORIZED", 401],
  ] as const)("keeps tRPC's %s as status %i", (code, status) => {
    expect(toAppError(new TRPCError({ code, message: "words" })).status).toBe(status);
  });

  it("answers a route's bad input with 400 and the issues beside the message", async () => {
    const response = toResponse(inputError([{ path: ["state"], message: "is missing" }]));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: "bad_request:api",
      message: "Check the input — state: is missing.",
      issues: [{ path: ["state"], message: "is missing" }],
    });
  });
});
