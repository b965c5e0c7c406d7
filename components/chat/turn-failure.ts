// What to tell a user whose answer failed, beyond the server's message (which says what happened,
// e.g. "The provider rejected the API key or token."): what they can do about it, and whether the
// provider settings are where to do it. Reads the error's code and the provider code the server
// appends in parentheses; wording that the server improves still lands in one of these groups, or
// in the general advice for provider failures, never in a wrong one.
export type TurnError = { code: string; message: string };
export type FailureHelp = { hint: string | null; isSettingsFix: boolean };

const groups: { pattern: RegExp; help: FailureHelp }[] = [
  {
    pattern: /authentication|invalid_api_key|unauthorized|api key|token|reconnect|sign in again/i,
    help: {
      hint: "Check the API key, or reconnect the account, in Settings → Providers; then try again.",
      isSettingsFix: true,
    },
  },
  {
    pattern: /permission|refused access|quota|credit|billing/i,
    help: {
      hint: "Check the account's access and plan in Settings → Providers, or pick another model.",
      isSettingsFix: true,
    },
  },
  {
    pattern: /not_found|does not know this model|model_not_found/i,
    help: { hint: "Pick another model in the model picker, then try again.", isSettingsFix: false },
  },
  {
    pattern: /too long|context_length|request_too_large/i,
    help: { hint: "Start a new chat, or edit the last message to ask for less.", isSettingsFix: false },
  },
  {
    pattern: /overloaded|rate.?limit|internal error|try again|could not reach|unavailable|timed? ?out/i,
    help: { hint: "This is usually temporary: try again in a moment.", isSettingsFix: false },
  },
];

/** Any other failure the model provider reported. */
const providerFallback: FailureHelp = {
  hint: "The provider may be busy or down: try again in a moment, or pick another model.",
  isSettingsFix: false,
};

export function describeFailure(error: TurnError | null): FailureHelp {
  if (!error) return { hint: null, isSettingsFix: false };
  const text = `${error.code} ${error.message}`;
  const group = groups.find((candidate) => candidate.pattern.test(text));
  if (group) return group.help;
  return error.code === "provider" ? providerFallback : { hint: null, isSettingsFix: false };
}
