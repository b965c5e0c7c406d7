// Auth.js endpoints: sign-in redirects, OAuth callbacks, sign-out, session. Each request runs in a
// scope that lets two simultaneous first sign-ins of the same account end in one user, on the
// loopback address the browser used (server/auth/loopback-host.ts: Next.js renames it "localhost");
// the session endpoint answers with the public shape only (no session token, no ids).
import type { NextRequest } from "next/server";

import { handlers } from "@/server/auth/config.ts";
import { withBrowserLoopbackHost } from "@/server/auth/loopback-host.ts";
import { filterSessionResponse } from "@/server/auth/public-session.ts";
import { runSignInRequest } from "@/server/auth/race-safe-adapter.ts";

export function GET(request: NextRequest): Promise<Response> {
  return runSignInRequest(async () =>
    filterSessionResponse(request, await handlers.GET(withBrowserLoopbackHost(request))),
  );
}

export function POST(request: NextRequest): Promise<Response> {
  return runSignInRequest(async () =>
    filterSessionResponse(request, await handlers.POST(withBrowserLoopbackHost(request))),
  );
}
