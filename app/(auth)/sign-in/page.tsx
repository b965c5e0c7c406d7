import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";

import { Button } from "@/components/ui/button.tsx";
import { canonicalLoopbackOrigin } from "@/server/auth/loopback-host.ts";
import { safeReturnPath } from "@/server/auth/safe-path.ts";
import { getSessionUser } from "@/server/auth/session.ts";
import { listSignInProviders } from "@/server/auth/providers.ts";
import { env } from "@/server/env.ts";

import { signInWithProvider } from "./actions.ts";

export const metadata: Metadata = { title: "Sign in" };

const errorMessages: Record<string, string> = {
  OAuthAccountNotLinked: "That email is already linked to another sign-in method. Use the one you used before.",
  AccessDenied: "Sign-in was cancelled or denied.",
  Configuration: "Sign-in is misconfigured on this server. Ask the administrator to check the logs.",
};

type SearchParams = Promise<{ callbackUrl?: string; error?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl: requested, error } = await searchParams;
  const callbackUrl = safeReturnPath(requested);
  if (await getSessionUser()) redirect(callbackUrl);
  // Signing in on another loopback name than AUTH_URL's would lose the sign-in cookies on the way back.
  const canonical = canonicalLoopbackOrigin(env.AUTH_URL, (await headers()).get("host"));
  if (canonical) redirect(`${canonical}/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  const providers = listSignInProviders(env);
  const errorMessage = error ? (errorMessages[error] ?? "Sign-in failed. Try again.") : undefined;
  return (
    <main className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-6 px-6">
      <div>
        <h1 className="text-2xl font-semibold">Sign in to Patchbay</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Chat with LLMs and wire up MCP tools live.</p>
      </div>
      {errorMessage && (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {errorMessage}
        </p>
      )}
      <div className="flex flex-col gap-3">
        {providers.map((provider) => (
          <form key={provider.id} action={signInWithProvider}>
            <input type="hidden" name="providerId" value={provider.id} />
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <Button type="submit" className="w-full">
              Continue with {provider.name}
            </Button>
          </form>
        ))}
      </div>
    </main>
  );
}
