// The identities the harness vendors answer with, and the clients they accept: the same public CLI
// client ids (and Google's installed-app secret) Patchbay sends by default.
export const CLIENTS = {
  anthropic: { clientId: "9d1c250a-e61b-44d9-88ed-5944d1962f5e" },
  openai: { clientId: "app_EMoamEEZ73f0CkXaXp7hrann" },
  google: {
    clientId: "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
    clientSecret: "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",
  },
} as const;

export const USERS = {
  anthropic: { email: "claude-user@example.test" },
  openai: { email: "chatgpt-user@example.test", accountId: "acct-e2e-0001", plan: "plus" },
  google: { email: "gemini-user@example.test" },
} as const;

export const ANTHROPIC_SCOPES = "org:create_api_key user:profile user:inference";
export const GOOGLE_REQUIRED_SCOPES = [
  "https://www.googleapis.com/auth/cloud-platform",
  "https://www.googleapis.com/auth/userinfo.email",
];
