import { describe, expect, it } from "vitest";

import { describeFailure } from "./turn-failure.ts";

const provider = (message: string) => ({ code: "provider", message });

describe("describeFailure", () => {
  it("sends a rejected key to the provider settings", () => {
    const help = describeFailure(provider("The provider rejected the API key or token. (authentication_error)"));
    expect(help.isSettingsFix).toBe(true);
    expect(help.hint).toContain("Settings → Providers");
  });

  it("sends an account that must be reconnected to the provider settings", () => {
    expect(describeFailure({ code: "unauthorized:provider", message: "Reconnect your account." }).isSettingsFix).toBe(
      true,
    );
  });

  it("calls an overloaded or failing provider temporary", () => {
    for (const message of [
      "The provider is overloaded; try again shortly. (overloaded_error)",
      "The provider had an internal error; try again.",
      "The provider is rate-limiting requests; try again shortly.",
    ]) {
      const help = describeFailure(provider(message));
      expect(help).toEqual({ hint: "This is usually temporary: try again in a moment.", isSettingsFix: false });
    }
  });

  it("suggests another model for an unknown one", () => {
    expect(describeFailure(provider("The provider does not know this model.")).hint).toContain("another model");
  });

  it("gives general advice for any other provider failure, and none for other errors", () => {
    expect(describeFailure(provider("The model provider returned an error."))).toEqual({
      hint: "The provider may be busy or down: try again in a moment, or pick another model.",
      isSettingsFix: false,
    });
    expect(describeFailure({ code: "internal", message: "The turn stopped on a server error." })).toEqual({
      hint: null,
      isSettingsFix: false,
    });
    expect(describeFailure(null)).toEqual({ hint: null, isSettingsFix: false });
  });
});
