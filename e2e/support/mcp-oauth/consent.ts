// Plays a user's browser on the OAuth test server (server.ts) for integration tests: opens the
// authorization URL, submits the consent form as `account` (or denies), and returns what the
// authorization server sent back to the redirect URI.
export type ConsentAnswer = { code: string | null; state: string | null; error: string | null };

export async function answerConsent(
  authorizationUrl: string,
  account: string,
  decision: "allow" | "deny" = "allow",
): Promise<ConsentAnswer> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await page.text();
  const consent = /name="consent" value="([^"]+)"/.exec(html)?.[1];
  if (page.status !== 200 || !consent) throw new Error(`No consent page (${page.status}): ${html.slice(0, 200)}`);
  const response = await fetch(new URL("/consent", authorizationUrl), {
    method: "POST",
    body: new URLSearchParams({ consent, account, decision }),
    redirect: "manual",
  });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`The consent form answered ${response.status} without a redirect.`);
  const params = new URL(location).searchParams;
  return { code: params.get("code"), state: params.get("state"), error: params.get("error") };
}
