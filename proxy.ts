// Next.js proxy (the Next 16 name for middleware): runs before every page and route and gives the
// response its security headers (server/security-headers.ts) with a fresh CSP nonce. The nonce
// and the policy also go on the request, where Next.js reads them to put the nonce on its own
// inline scripts, and the root layout on the theme script. Static build files are skipped, and so are
// the tRPC API and the chats' event streams (the chat's hot path; their routes set the API's own
// headers: app/api/trpc, server/api/chat-events.ts).
import { type NextRequest, NextResponse } from "next/server";

import { env } from "./server/env.ts";
import { createNonce, securityHeaders } from "./server/security-headers.ts";

export function proxy(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const headers = securityHeaders({ nonce, isDevelopment: env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico|api/trpc|api/chats/).*)" }],
};
