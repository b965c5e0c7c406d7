// Only the flows the administrator listed exist for users, each with a notice that names whose
// client registration it reuses and that the vendor's terms may forbid it.
import { describe, expect, it } from "vitest";

import { AppError } from "../../errors.ts";
import { assertFlowEnabled, listFlows, reconnectNeededError } from "./flows.ts";

describe("subscription flows", () => {
  it("lists only the enabled flows, in a fixed order, with the consent text", () => {
    const flows = listFlows({ PROVIDER_SUBSCRIPTIONS: ["google", "anthropic"] });
    expect(flows.map((flow) => [flow.flow, flow.kind])).toEqual([
      ["anthropic", "code-paste"],
      ["google", "code-paste"],
    ]);
    expect(flows[0]!.consent).toMatch(/Claude Code's own OAuth client registration/);
    expect(flows[1]!.consent).toMatch(/terms may not allow a third-party app/);
    expect(listFlows({ PROVIDER_SUBSCRIPTIONS: [] })).toEqual([]);
  });

  it("refuses a flow that is switched off with a clear error", () => {
    expect(() => assertFlowEnabled({ PROVIDER_SUBSCRIPTIONS: ["openai"] }, "anthropic")).toThrow(
      /switched off on this server/,
    );
    expect(() => assertFlowEnabled({ PROVIDER_SUBSCRIPTIONS: ["openai"] }, "openai")).not.toThrow();
  });

  it("tells the user where to reconnect", () => {
    const error = reconnectNeededError("openai");
    expect(error).toBeInstanceOf(AppError);
    expect(error.message).toMatch(/reconnect your ChatGPT account in Settings → Providers/);
  });
});
