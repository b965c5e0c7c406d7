import { describe, expect, it, onTestFinished, vi } from "vitest";

import { ConnectorFailureLog, logConnectorFailure, redact, secretsOf } from "./connector-log.ts";

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

  it("logs a server that stays down in full once, then at the 2nd, 4th, 8th… failure in a row, and its return", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const config = { kind: "sse" as const, url: "https://x.test", headers: { Authorization: "Bearer tok-abcdef" } };
    const log = new ConnectorFailureLog();

    for (let attempt = 1; attempt <= 9; attempt++) {
      log.failed('"files"', "Could not connect: refused by tok-abcdef", ["stderr line"], config);
    }
    log.connected();
    log.failed('"files"', "The server closed the connection.", [], config);

    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain("stderr line");
    expect(lines.slice(1, 4).map((line) => /still failing, (\d+) attempts/.exec(line)?.[1])).toEqual(["2", "4", "8"]);
    expect(lines[4]).toBe('[patchbay] MCP connector "files": connected again after 9 failed attempts');
    expect(lines[5]).toMatch(/"files": The server closed the connection\./); // a new run: in full again
    expect(lines.join("\n")).not.toContain("tok-abcdef");
  });
});
