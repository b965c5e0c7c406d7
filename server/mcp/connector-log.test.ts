import { describe, expect, it, onTestFinished, vi } from "vitest";

import { logConnectorFailure, redact, secretsOf } from "./connector-log.ts";

describe("the operator's log of a failing connector", () => {
  it("redacts the connector's env values, header values and each word of them, leaving short values alone", () => {
    const stdio = secretsOf({ kind: "stdio", command: "srv", args: [], env: { KEY: "sk-123456", DEBUG: "1" } });
    const remote = secretsOf({ kind: "sse", url: "https://x.test", headers: { Authorization: "Bearer tok-abcdef" } });

    expect(redact("key sk-123456, debug 1", stdio)).toBe("key [redacted], debug 1");
    expect(redact("sent Bearer tok-abcdef; token tok-abcdef", remote)).toBe("sent [redacted]; token [redacted]");
  });

  it("logs the message and the last stderr lines with secrets redacted", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const lines = [...Array.from({ length: 30 }, (_, index) => `line ${index}`), "", "fatal: bad key hunter22"];

    logConnectorFailure('"files" (c1)', "The server closed the connection.", lines, {
      kind: "stdio",
      command: "srv",
      args: [],
      env: { PASSWORD: "hunter22" },
    });

    const [logged] = warn.mock.calls[0] as [string];
    expect(logged).toMatch(/^\[patchbay\] MCP connector "files" \(c1\): The server closed the connection\./);
    expect(logged).toContain("fatal: bad key [redacted]");
    expect(logged).not.toContain("hunter22");
    expect(logged).not.toContain("line 10\n"); // only the last 20 non-empty lines
    expect(logged).toContain("line 29");
  });
});
