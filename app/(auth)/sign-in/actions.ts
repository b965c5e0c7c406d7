"use server";
// Sign-in and sign-out actions. Only providers this instance offers are accepted, and the return
// address must be a path on this site (no open redirects).
import { env } from "@/server/env.ts";
import { signIn, signOut } from "@/server/auth/config.ts";
import { safeReturnPath } from "@/server/auth/safe-path.ts";
import { listSignInProviders } from "@/server/auth/providers.ts";

export async function signInWithProvider(formData: FormData): Promise<void> {
  const providerId = formData.get("providerId");
  const offered = listSignInProviders(env).some((provider) => provider.id === providerId);
  if (typeof providerId !== "string" || !offered) throw new Error("Unknown sign-in provider.");
  await signIn(providerId, { redirectTo: safeReturnPath(formData.get("callbackUrl")) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}
