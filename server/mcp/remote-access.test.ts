// The SSRF guard on the wire: real HTTP servers on loopback, real undici sockets, name resolution
// injected (no DNS, no /etc/hosts). 127.0.0.2 stands in for a public host where a test needs one
// (`testNetwork`); 127.0.0.1 is the private network a request must never reach, and every test
// checks that its server there saw no request at all.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

import { startFixtureHttp } from "../../e2e/support/mcp-fixture/launch.ts";
import { AppError } from "../errors.ts";
import { ConnectionPool } from "./connection-pool.ts";
import { createRemoteAccess } from "./remote-access.ts";
import type { ConnectorConfig } from "./transports.ts";
import { isPublicAddress, type LookupAll } from "../core/url-guard.ts";

const PUBLIC_STAND_IN = "127.0.0.2";
const testNetwork = { isAllowedAddress: (address: string) => address === PUBLIC_STAND_IN || isPublicAddress(address) };

/** A resolver over a fixed table; a function value answers differently on each call. */
function resolver(table: Record<string, string | (() => string)>): LookupAll {
  return (hostname) => {
    const entry = table[hostname];
    if (entry === undefined)
      return Promise.reject(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
    const address = typeof entry === "function" ? entry() : entry;
    return Promise.resolve([{ address, family: 4 }]);
  };
}

async function listen(host: string, handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const server: Server = createServer(handle);
  server.listen(0, host);
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TypeError);
  const cause = (error as TypeError).cause;
  expect(cause).toBeInstanceOf(AppError);
  return (cause as AppError).message;
}

let inner: { server: Server; port: number; hits: string[] };
let outer: { server: Server; port: number };
const requestBodies: string[] = [];

beforeAll(async () => {
  const hits: string[] = [];
  inner = {
    ...(await listen("127.0.0.1", (request, response) => (hits.push(request.url ?? ""), response.end("secret")))),
    hits,
  };
  outer = await listen(PUBLIC_STAND_IN, (request, response) => {
    const targets: Record<string, string> = {
      "/to-loopback": `http://127.0.0.1:${inner.port}/secret`,
      "/to-metadata": "http://169.254.169.254/latest/meta-data/",
      "/to-internal-name": `http://internal.test:${inner.port}/secret`,
      "/to-localhost": `http://localhost:${inner.port}/secret`,
      "/keep-method": "/echo",
    };
    const target = targets[request.url ?? ""];
    if (target) {
      response.writeHead(request.url === "/keep-method" ? 307 : 302, { location: target }).end();
      return;
    }
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      requestBodies.push(body);
      response.end(`${request.method} ${request.url} ${body}`);
    });
  });
});

afterAll(() => {
  inner.server.close();
  outer.server.close();
});

describe("remote access without private URLs", () => {
  const access = createRemoteAccess({
    allowPrivate: false,
    lookup: resolver({ "public.test": PUBLIC_STAND_IN, "internal.test": "127.0.0.1" }),
    ...testNetwork,
  });
  afterAll(() => access.close());
  const fetchPublic = (path: string, init?: RequestInit) =>
    access.fetchFor(`http://public.test:${outer.port}/mcp`)!(`http://public.test:${outer.port}${path}`, init);

  it.each(["/to-loopback", "/to-metadata", "/to-internal-name", "/to-localhost"])(
    "refuses a redirect from a public host to a private address (%s) and never connects there",
    async (path) => {
      expect(await refusal(fetchPublic(path))).toMatch(
        /^Refused to connect to ".*": it (is|resolves to) a private address/,
      );
      expect(inner.hits).toEqual([]);
    },
  );

  it("hands a manual redirect back as it is, and refuses the caller's next hop", async () => {
    const response = await fetchPublic("/to-loopback", { redirect: "manual" });
    expect(response.status).toBe(302);
    const next = access.fetchFor(`http://public.test:${outer.port}/mcp`)!(response.headers.get("location")!);
    expect(await refusal(next)).toContain('"127.0.0.1"');
    expect(inner.hits).toEqual([]);
  });

  it("follows a redirect between allowed addresses, keeping a 307's method and body", async () => {
    const response = await fetchPublic("/keep-method", { method: "POST", body: '{"jsonrpc":"2.0"}' });
    expect(await response.text()).toBe('POST /echo {"jsonrpc":"2.0"}');
  });

  it("connects only to the address it checked: a name that turns into 127.0.0.1 after the check is refused", async () => {
    const answers = ["93.184.216.34", "127.0.0.1"]; // the check sees a public address, the connect loopback
    const rebinding = createRemoteAccess({
      allowPrivate: false,
      lookup: resolver({ "rebind.test": () => answers.shift()! }),
    });
    onTestFinished(() => rebinding.close());
    const url = `http://rebind.test:${inner.port}/secret`;

    await rebinding.checkUrl(url); // the earlier check passes

    expect(await refusal(rebinding.fetchFor(url)!(url))).toContain('"rebind.test"');
    expect(inner.hits).toEqual([]);
  });

  it("never lets a connector with an Authorization header reach a private address through a redirect", async () => {
    const redirector = await listen(PUBLIC_STAND_IN, (_request, response) =>
      response.writeHead(307, { location: `http://127.0.0.1:${inner.port}/mcp` }).end(),
    );
    onTestFinished(() => void redirector.server.close());
    const pool = new ConnectionPool({ remote: access });
    onTestFinished(() => pool.closeAll());
    const config: ConnectorConfig = {
      kind: "streamable-http",
      url: `http://${PUBLIC_STAND_IN}:${redirector.port}/mcp`,
      headers: { Authorization: "Bearer shared-token" },
    };

    await expect(pool.listTools("redirecting", config)).rejects.toThrow(/^The redirecting connector is unavailable/);
    expect(inner.hits).toEqual([]);
  });

  it("refuses, at connect time, a connector whose host name rebinds to 127.0.0.1 after the check", async () => {
    const fixture = await startFixtureHttp();
    onTestFinished(() => fixture.stop());
    const answers = ["93.184.216.34", "127.0.0.1"];
    const rebinding = createRemoteAccess({
      allowPrivate: false,
      lookup: resolver({ "rebind.test": () => answers.shift()! }),
    });
    onTestFinished(() => rebinding.close());
    const pool = new ConnectionPool({ remote: rebinding });
    onTestFinished(() => pool.closeAll());
    const url = `http://rebind.test:${new URL(fixture.url).port}/mcp`;

    const config: ConnectorConfig = { kind: "streamable-http", url, headers: { Authorization: "Bearer shared-token" } };
    await expect(pool.listTools("rebinding", config)).rejects.toThrow(/private address/);
    expect(pool.health("rebinding")).toBe("unhealthy");
  });
});

describe("trusted admin URLs and MCP_ALLOW_PRIVATE_URLS", () => {
  it("reaches an admin URL as written, but checks wherever it redirects", async () => {
    const admin = await listen("127.0.0.1", (request, response) => {
      if (request.url === "/bounce") response.writeHead(302, { location: "http://169.254.169.254/" }).end();
      else response.end("admin server");
    });
    onTestFinished(() => void admin.server.close());
    const adminUrl = `http://127.0.0.1:${admin.port}/mcp`;
    const access = createRemoteAccess({ allowPrivate: false, trustedUrls: [adminUrl] });
    onTestFinished(() => access.close());

    await access.checkUrl(adminUrl);
    expect(await (await access.fetchFor(adminUrl)!(adminUrl)).text()).toBe("admin server");
    expect(await refusal(access.fetchFor(adminUrl)!(`http://127.0.0.1:${admin.port}/bounce`))).toContain(
      '"169.254.169.254"',
    );
    // A user connector at another path of the same host is not the admin's URL.
    await expect(access.checkUrl(`http://127.0.0.1:${admin.port}/other`)).rejects.toThrow(/private address/);
    expect(await refusal(access.fetchFor(`http://127.0.0.1:${admin.port}/other`)!(adminUrl))).toContain("127.0.0.1");
  });

  it("lets everything through with MCP_ALLOW_PRIVATE_URLS, on the global fetch", async () => {
    const open = createRemoteAccess({ allowPrivate: true });
    onTestFinished(() => open.close());
    await open.checkUrl(`http://127.0.0.1:${inner.port}/secret`);
    expect(open.fetchFor(`http://127.0.0.1:${inner.port}/secret`)).toBeUndefined();
  });
});
