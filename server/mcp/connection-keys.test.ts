import { describe, expect, it } from "vitest";

import { connectionKey, hasPerUserCredentials, isPerUser, parseConnectionKey } from "./connection-keys.ts";
import type { ConnectorConfig } from "./transports.ts";

const remote = (headers: Record<string, string> = {}): ConnectorConfig => ({
  kind: "streamable-http",
  url: "https://mcp.example.com/mcp",
  headers,
});
const stdio: Extract<ConnectorConfig, { kind: "stdio" }> = {
  kind: "stdio",
  command: "node",
  args: ["server.js"],
  env: {},
};

describe("connection keys", () => {
  it("gives a remote connector without fixed credentials one connection per user", () => {
    const connector = { id: "c1", config: remote() };
    expect(connectionKey(connector, "alice")).toBe("c1:alice");
    expect(connectionKey(connector, "bob")).toBe("c1:bob");
    expect(
      connectionKey({ id: "c1", config: { kind: "sse", url: "https://mcp.example.com/sse", headers: {} } }, "alice"),
    ).toBe("c1:alice");
  });

  it("gives a stdio server one process per user, unless the admin marks it shared", () => {
    expect(connectionKey({ id: "c1", config: stdio }, "alice")).toBe("c1:alice");
    expect(connectionKey({ id: "c1", config: stdio }, "bob")).toBe("c1:bob");
    expect(connectionKey({ id: "c1", config: { ...stdio, shared: true } }, "alice")).toBe("c1");
    expect(isPerUser(stdio)).toBe(true);
    expect(isPerUser({ ...stdio, shared: true })).toBe(false);
  });

  it("shares one connection where the credentials are the same for everybody", () => {
    expect(connectionKey({ id: "c2", config: remote({ AUTHORIZATION: "Bearer x" }) }, "alice")).toBe("c2");
    expect(hasPerUserCredentials(remote({ "X-Api-Key": "k" }))).toBe(true);
    expect(hasPerUserCredentials(remote({ Authorization: "Bearer x" }))).toBe(false);
  });

  it("parses keys back into connector and user", () => {
    expect(parseConnectionKey("c1:alice")).toEqual({ connectorId: "c1", userId: "alice" });
    expect(parseConnectionKey("c1")).toEqual({ connectorId: "c1", userId: null });
    expect(() => connectionKey({ id: "a:b", config: remote() }, "alice")).toThrow(/may not contain/);
  });
});
