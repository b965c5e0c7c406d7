// The size cap on a tRPC request body, checked at the edge before anything is read: the largest
// input a procedure accepts (a 100,000-character message, at most 4 bytes a character in UTF-8,
// in its JSON envelope) fits well inside it. A larger declared body is refused with 413 in words.
import { AppError } from "../errors.ts";

export const MAX_BODY_BYTES = 1_048_576;

/** Throws too_large:api when the request declares a body larger than MAX_BODY_BYTES. */
export function assertBodyWithinLimit(request: Request): void {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES)
    throw new AppError(
      "too_large:api",
      `The request is too large (1 MiB at most; this one declares ${declared} bytes).`,
    );
}
