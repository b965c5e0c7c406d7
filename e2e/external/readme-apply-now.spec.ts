// The README's animated capture of Apply now, made fresh by every e2e run beside the screenshots
// (e2e/.artifacts/screenshots/readme-apply-now.gif; copy it over docs/screenshots/apply-now.gif when
// the UI changes): a question, an answer that starts without tools, the user switching a connector
// on mid-answer, the pending notice, Apply now, and the answer restarting with the new tool. The
// screen is recorded while the spec checks each step, and Debian's ffmpeg makes the GIF.
import { readFile } from "node:fs/promises";

import { scriptFakeReply } from "../support/fake-provider-control.ts";
import { expect, test } from "../support/fixtures.ts";
import { recordScreen, writeGif } from "../support/screen-recording.ts";

const GIF = "e2e/.artifacts/screenshots/readme-apply-now.gif";
const QUESTION = "Add 1234 and 5678 for me";
const BY_HAND = [
  "There is no calculator among this chat's tools, so I will add them by hand, column by column,",
  "starting from the ones. 4 + 8 = 12: write 2 and carry 1 to the tens. 3 + 7 = 10, plus the carried 1",
  "is 11: write 1 and carry 1 to the hundreds. 2 + 6 = 8, plus the carried 1 is 9: write 9, nothing to",
  "carry. 1 + 5 = 6 in the thousands. Reading the columns from the left gives 6912. To check it, take",
  "5678 back off: 6912 − 5678. 2 − 8 does not go, so borrow from the tens: 12 − 8 = 4. The tens are now",
  "0, borrow again: 10 − 7 = 3. The hundreds are now 8: 8 − 6 = 2. The thousands: 6 − 5 = 1. That is",
  "1234, the number we started from, so the sum holds. Another way to see it: 1234 is 1200 + 34 and",
  "5678 is 5600 + 78; 1200 + 5600 = 6800 and 34 + 78 = 112, and 6800 + 112 = 6912 again. Rounding",
  "gives a sense of scale too: about 1200 plus about 5700 is about 6900, close to the exact answer.",
  "Had I a calculator tool, I would have asked it instead of working through every column by hand",
  "like this, which is slower, and with longer numbers, easier to get wrong.",
].join(" ");

test.use({ viewport: { width: 1280, height: 800 } });

test("a connector switched on mid-answer, then Apply now (recorded as a GIF)", async ({ page, request, chat }) => {
  test.setTimeout(120_000);
  await chat.openNewChat();
  await chat.chooseModel("openai:gpt-5.1");
  await scriptFakeReply(request, "openai", {
    forMessage: QUESTION,
    // About 60 s, though Apply now cuts it after a few: on a loaded 2-core box (both e2e workers
    // and the screen recording) the steps up to the click took 35 s, past a 30 s answer's end.
    steps: [{ type: "text", text: BY_HAND, chunkSize: 2 }],
    delayMs: 120,
  });
  await scriptFakeReply(request, "openai", {
    forMessage: QUESTION,
    steps: [{ type: "tool-call", name: "everything_get-sum", args: { a: 1234, b: 5678 } }],
  });
  await scriptFakeReply(request, "openai", {
    forMessage: QUESTION,
    steps: [{ type: "text", text: "**1234 + 5678 = 6912**, from the everything connector's get-sum tool." }],
    delayMs: 30,
  });
  await chat.openTools(); // docked: the switch and the notice are in the picture
  await page.mouse.move(0, 0);

  const recording = await recordScreen(page);
  await chat.composer.pressSequentially(QUESTION, { delay: 35 });
  await chat.composer.press("Enter");
  await expect(chat.lastAnswer()).toContainText("column by column");
  await page.waitForTimeout(1_200); // the answer visibly streams without tools

  await chat.switchConnector("everything", true);
  await expect(chat.pendingNotice).toBeVisible();
  const applyNow = page.getByRole("button", { name: "Apply now" });
  await applyNow.hover();
  await page.waitForTimeout(1_500); // time to read the notice
  await applyNow.click();

  await expect(chat.supersededAnswers).toHaveCount(1);
  await expect(chat.toolStatus(chat.lastToolCard())).toContainText("done");
  await expect(chat.lastAnswer()).toContainText("1234 + 5678 = 6912");
  await chat.expectLastAnswerDone();
  await page.mouse.move(0, 0);
  const frames = await recording.stop(2_500);

  await writeGif(frames, GIF, { width: 800, fps: 9 });
  const gif = await readFile(GIF);
  expect(gif.subarray(0, 6).toString("latin1")).toBe("GIF89a");
  expect(gif.length, "the README's GIF stays under 2 MB").toBeLessThan(2 * 1024 * 1024);
});
