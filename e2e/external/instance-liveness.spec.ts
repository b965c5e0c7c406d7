// Two more real instances of the app on the external app's database, A and B. Alice's chat is open
// twice: page A reaches instance A through a small TCP proxy (a load balancer's stand-in), page B
// reaches B directly. An answer streams from A; A is killed with SIGKILL. Page B must show the turn
// interrupted within 3 s (its lease is 15 s: the instance lock tells), page A must say
// "Reconnecting…", and a new send in that chat from B must work at once. When the proxy then sends
// page A to B, its stream resumes there: the interrupted turn shows and "Reconnecting…" goes.
import { createServer, type Server, type Socket, connect } from "node:net";
import path from "node:path";

import { ChatPage } from "../pages/chat-page.ts";
import { type AppProcess, startAppProcess, waitForHttp } from "../support/app-process.ts";
import { ALICE, LIVENESS_APP_PORTS } from "../support/config.ts";
import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import type { Page } from "@playwright/test";

const [PORT_A, PORT_B] = LIVENESS_APP_PORTS;
const urlOf = (port: number) => `http://localhost:${port}`;

function startInstance(port: number): AppProcess {
  const env = JSON.parse(process.env.PATCHBAY_E2E_EXTERNAL_APP_ENV ?? "{}") as Record<string, string>;
  const serve = path.resolve("server/cli/serve.ts"); // npm start's server
  return startAppProcess(process.execPath, [serve, "--hostname", "127.0.0.1", "--port", String(port)], {
    ...env,
    PORT: String(port),
    PATCHBAY_DATA_DIR: path.join(env.PATCHBAY_DATA_DIR ?? "", `liveness-${port}`),
  });
}

/**
 * The chat's composer on a freshly started instance. A cold instance may take a while on a loaded
 * machine; if it never shows, the failure carries what the page and the instance said instead.
 */
async function expectComposer(page: Page, instance: AppProcess, label: string): Promise<void> {
  try {
    await expect(new ChatPage(page).composer).toBeVisible({ timeout: 30_000 });
  } catch (error) {
    const body = await page
      .locator("body")
      .innerText()
      .catch(() => "(unreadable)");
    const detail = `${label}: ${page.url()} shows:\n${body.slice(0, 2_000)}\n--- instance output ---\n${instance.output().slice(-4_000)}`;
    await test.info().attach(`${label} instead of the composer`, { body: detail });
    throw new Error(`${(error as Error).message}\n${detail}`);
  }
}

/** A TCP proxy on a free port that sends each new connection to `target()`; open ones stay put. */
async function startProxy(target: () => number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target(), "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => client.destroy());
    }
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test("a killed instance's answer shows interrupted within 3 s elsewhere, and the chat goes on", async ({
  page,
  request,
  openAs,
}) => {
  test.setTimeout(180_000);
  const instances = [startInstance(PORT_A), startInstance(PORT_B)];
  let target = PORT_A;
  const proxy = await startProxy(() => target);
  try {
    await Promise.all([PORT_A, PORT_B].map((port) => waitForHttp(`${urlOf(port)}/sign-in`, 120_000)));
    const chatA = new ChatPage(page);
    await chatA.openNewChat(); // on the external app: the chat exists for everyone on the database
    const chatPath = new URL(page.url()).pathname;
    await page.goto(`http://localhost:${proxy.port}${chatPath}`);
    await expectComposer(page, instances[0]!, "page A (instance A through the proxy)");
    const pageB = await openAs(ALICE);
    await pageB.goto(`${urlOf(PORT_B)}${chatPath}`);
    const chatB = new ChatPage(pageB);
    await expectComposer(pageB, instances[1]!, "page B (instance B)");

    await scriptFakeReply(request, "anthropic", {
      forMessage: "stream until the crash",
      steps: [{ type: "text", text: "partial ".repeat(600), chunkSize: 8 }],
      delayMs: 40,
    });
    await chatA.send("stream until the crash");
    await expect(chatB.lastAnswerText()).toContainText("partial partial partial");
    await expect(pageB.getByText("Writing…")).toBeVisible();

    const killedAt = Date.now();
    instances[0]!.stop(); // SIGKILL to instance A's process group
    await expect(chatB.lastAnswer()).toHaveAttribute("data-status", "interrupted", { timeout: 3_000 });
    const shownAfterMs = Date.now() - killedAt;
    await test.info().attach("interrupted shown after (ms)", { body: String(shownAfterMs) });
    console.log(`[liveness] other instance showed the turn interrupted ${shownAfterMs} ms after kill -9`);
    await expect(chatB.lastAnswer().getByTestId("turn-status-note")).toHaveText(
      "Interrupted: the server stopped while writing this answer; the partial answer is kept.",
    );
    await expect(chatB.lastAnswerText()).toContainText("partial partial");
    await expect(page.getByTestId("stream-reconnecting")).toContainText("Reconnecting…");

    await chatB.send("right after the crash");
    await expect(chatB.lastAnswer()).toContainText("Echo: right after the crash");
    await chatB.expectLastAnswerDone();

    target = PORT_B; // the "load balancer" now sends page A to the surviving instance
    await expect(page.getByTestId("stream-reconnecting")).toHaveCount(0, { timeout: 30_000 });
    await expect(chatA.answers.first()).toHaveAttribute("data-status", "interrupted");
    await expect(chatA.lastAnswer()).toContainText("Echo: right after the crash");
  } finally {
    await proxy.close();
    for (const instance of instances) instance.stop();
  }
});
