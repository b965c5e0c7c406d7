// The ChatGPT account id, plan and email come from the token claims; anything unreadable is absent.
import { describe, expect, it } from "vitest";

import { readChatGptClaims } from "./chatgpt.ts";

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("readChatGptClaims", () => {
  it("reads the auth claim of the id_token and the plan of the access token", () => {
    const auth = "https://api.openai.com/auth";
    const claims = readChatGptClaims({
      idToken: jwt({ email: "me@example.test", [auth]: { chatgpt_account_id: "acct-9", chatgpt_plan_type: "free" } }),
      accessToken: jwt({ [auth]: { chatgpt_plan_type: "pro" } }),
    });
    expect(claims).toEqual({ accountId: "acct-9", plan: "pro", email: "me@example.test" });
  });

  it("answers nothing for tokens that are not JWTs", () => {
    expect(readChatGptClaims({ idToken: "opaque", accessToken: "x.y" })).toEqual({});
  });
});
