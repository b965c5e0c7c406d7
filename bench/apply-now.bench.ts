// Apply now as a user sees it, part of `npm run bench:browser` (bench/browser.config.ts): in Chromium
// against the production build, an answer streams without tools, the user switches the "everything"
// connector on, and clicks Apply now. Measured: from the click (the event's own timestamp in the
// page) to the restarted request arriving at the fake provider (its receivedAt), on the same
// machine's clock. Prints min / median / max over the samples beside the issue's goal (≤ 50 ms
// median); never fails on time.
import { expect, type APIRequestContext } from "@playwright/test";

import { scriptFakeReply } from "../e2e/support/fake-provider-control.ts";
import { FAKE_PROVIDER_URL } from "../e2e/support/config.ts";
import { test } from "../e2e/support/fixtures.ts";

const SAMPLES = 10;
const LONG_ANSWER = "words that keep coming while the user changes the tools ".repeat(40);

type Recorded = { body: unknown; receivedAt: string };

/** When the fake provider received the latest OpenAI request that carries `message`, in epoch ms. */
async function lastRequestAt(request: APIRequestContext, message: string): Promise<number | null> {
  const response = await request.get(`${FAKE_PROVIDER_URL}/_fake/requests?provider=openai`);
  const records = (await response.json()) as Recorded[];
  const matching = records.filter((record) => JSON.stringify(record.body).includes(message));
  return matching.length === 0 ? null : Date.parse(matching.at(-1)!.receivedAt);
}

test.use({ viewport: { width: 1280, height: 800 } });
test.setTimeout(300_000);

test("apply now, click to restarted request", async ({ page, request, chat }) => {
  const samples = {
    clickToProvider: [] as number[],
    clickToPost: [] as number[],
    postToProvider: [] as number[],
    postAnswered: [] as number[],
  };
  for (let index = 0; index < SAMPLES; index++) {
    const message = `apply-now bench ${Date.now()} ${index}`;
    await chat.openNewChat();
    await chat.chooseModel("openai:gpt-5.1");
    await chat.switchConnector("everything", false);
    await scriptFakeReply(request, "openai", {
      forMessage: message,
      steps: [{ type: "text", text: LONG_ANSWER, chunkSize: 8 }],
      delayMs: 50,
    });
    await scriptFakeReply(request, "openai", { forMessage: message, steps: [{ type: "text", text: "Restarted." }] });
    await chat.composer.fill(message);
    await chat.composer.press("Enter");
    await expect(chat.lastAnswer()).toContainText("keep coming");
    await chat.switchConnector("everything", true);
    await expect(chat.pendingNotice).toBeVisible();
    const applyNow = page.getByRole("button", { name: "Apply now" });
    await applyNow.evaluate((button) => {
      button.addEventListener(
        "click",
        (event) => ((window as unknown as { __clickAt: number }).__clickAt = performance.timeOrigin + event.timeStamp),
        { once: true, capture: true },
      );
    });
    const before = await lastRequestAt(request, message);
    await applyNow.click();
    await expect(chat.supersededAnswers).toHaveCount(1);
    await expect(chat.lastAnswer()).toContainText("Restarted.");
    const timing = await page.evaluate(() => {
      const sent = performance.getEntriesByType("resource").filter((entry) => entry.name.includes("chat.applyNow"));
      const post = sent.at(-1) as PerformanceResourceTiming | undefined;
      const origin = performance.timeOrigin;
      const clickAt = (window as unknown as { __clickAt: number }).__clickAt;
      return {
        clickAt,
        postAt: post ? origin + post.requestStart : null,
        answeredAt: post ? origin + post.responseEnd : null,
      };
    });
    const restartedAt = await lastRequestAt(request, message);
    if (restartedAt === null || restartedAt === before) continue;
    samples.clickToProvider.push(restartedAt - timing.clickAt);
    if (timing.postAt !== null) samples.clickToPost.push(timing.postAt - timing.clickAt);
    if (timing.postAt !== null) samples.postToProvider.push(restartedAt - timing.postAt);
    if (timing.answeredAt !== null && timing.postAt !== null)
      samples.postAnswered.push(timing.answeredAt - timing.postAt);
  }
  print("Apply now: click -> restarted request at the provider", samples.clickToProvider, "≤ 50 ms median");
  print("  of which click -> POST chat.applyNow sent (browser)", samples.clickToPost, "");
  print("  of which POST sent -> request at the provider", samples.postToProvider, "");
  print("Apply now: POST chat.applyNow answered", samples.postAnswered, "");
});

/** min / median / max of `values`, beside the goal. */
function print(figure: string, values: number[], goal: string): void {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (index: number) => (sorted[index] === undefined ? "–" : `${Math.round(sorted[index])}`);
  const value = `${at(0)} / ${at(Math.floor(sorted.length / 2))} / ${at(sorted.length - 1)} ms`;
  console.log(
    `  ${figure.padEnd(52)} ${value.padStart(18)}   ${goal ? `goal ${goal}; ` : ""}min / median / max of ${sorted.length}`,
  );
}
