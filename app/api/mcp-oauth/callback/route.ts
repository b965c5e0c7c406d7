// The OAuth redirect target of MCP connectors (`<AUTH_URL or origin>/api/mcp-oauth/callback`): the
// authorization server sends the user's browser here with `code` and `state`. It needs the signed-in
// user (else sign in and come back), hands the parameters to server/mcp/oauth-accounts.ts, which
// accepts only a state this user started, and returns to the connectors settings with a notice.
import { getSessionUser } from "@/server/auth/session.ts";
import { oauthBaseUrl } from "@/server/mcp/mcp-runtime.ts";
import { getMcpRuntime } from "@/server/session/app-runtime.ts";
import { completeOAuthCallback } from "@/server/mcp/oauth-accounts.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const baseUrl = oauthBaseUrl(url.origin);
  const user = await getSessionUser();
  if (!user) {
    const back = `/api/mcp-oauth/callback${url.search}`;
    return Response.redirect(new URL(`/sign-in?callbackUrl=${encodeURIComponent(back)}`, baseUrl), 303);
  }
  const params = url.searchParams;
  const result = await completeOAuthCallback(
    (await getMcpRuntime()).oauth,
    user.id,
    { code: params.get("code"), state: params.get("state"), error: params.get("error") },
    baseUrl,
  );
  const notice = new URLSearchParams(result.ok ? { oauth: "connected" } : { oauth: result.reason });
  if (result.connectorId) notice.set("connector", result.connectorId);
  return Response.redirect(new URL(`/settings/connectors?${notice.toString()}`, baseUrl), 303);
}
