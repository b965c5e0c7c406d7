// A short screen recording of a page for the README, made into an animated GIF by Debian's ffmpeg.
// The frames come from Chromium's screencast (the DevTools protocol's Page.startScreencast, what
// Playwright's own `recordVideo` is built on; that option needs Playwright's private ffmpeg build,
// which `playwright install` would download, so the frames are taken here and handed to the system's
// ffmpeg instead). A frame arrives only when the page changed, with its time: each one is shown for
// as long as it stayed on screen. The GIF is kept small: scaled to `width`, `fps` frames a second and
// one palette made for the whole clip. ffmpeg missing is an error that says how to install it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import type { Page } from "@playwright/test";

export const FFMPEG = "/usr/bin/ffmpeg";

type Frame = { jpeg: Buffer; at: number };

export type ScreenRecording = {
  /** Ends the recording; the last frame is held for `holdLastMs`. */
  stop: (holdLastMs?: number) => Promise<Frame[]>;
};

/** Starts recording `page` (its viewport, at most `maxWidth` pixels wide). */
export async function recordScreen(page: Page, maxWidth = 1280): Promise<ScreenRecording> {
  const cdp = await page.context().newCDPSession(page);
  const frames: Frame[] = [];
  cdp.on("Page.screencastFrame", (frame) => {
    frames.push({ jpeg: Buffer.from(frame.data, "base64"), at: frame.metadata.timestamp ?? Date.now() / 1000 });
    void cdp.send("Page.screencastFrameAck", { sessionId: frame.sessionId }).catch(() => undefined);
  });
  await cdp.send("Page.startScreencast", { format: "jpeg", quality: 90, maxWidth, maxHeight: 4000 });
  return {
    stop: async (holdLastMs = 1_500) => {
      await cdp.send("Page.stopScreencast");
      await cdp.detach();
      const last = frames.at(-1);
      if (last) frames.push({ jpeg: last.jpeg, at: last.at + holdLastMs / 1000 });
      return frames;
    },
  };
}

/**
 * Writes the frames as an animated GIF that loops, `width` pixels wide at `fps` frames a second
 * (one palette for the clip, only the changed rectangle dithered per frame).
 */
export async function writeGif(frames: Frame[], file: string, { width = 800, fps = 9 } = {}): Promise<void> {
  if (!existsSync(FFMPEG))
    throw new Error(
      `${FFMPEG} is missing: install Debian's ffmpeg (apt-get install ffmpeg, or run .ci/prepare as root)`,
    );
  if (frames.length < 2) throw new Error(`the screen recording has ${frames.length} frame(s); nothing to animate`);
  const dir = await mkdtemp(path.join(tmpdir(), "patchbay-gif-"));
  try {
    const lines = ["ffconcat version 1.0"];
    for (const [index, frame] of frames.entries()) {
      const name = `${String(index).padStart(5, "0")}.jpg`;
      await writeFile(path.join(dir, name), frame.jpeg);
      const next = frames[index + 1];
      lines.push(`file ${name}`);
      if (next) lines.push(`duration ${Math.max(0.001, next.at - frame.at).toFixed(3)}`);
    }
    // The concat demuxer ignores the last entry's duration unless the file is listed once more.
    lines.push(`file ${String(frames.length - 1).padStart(5, "0")}.jpg`);
    await writeFile(path.join(dir, "frames.txt"), `${lines.join("\n")}\n`);
    await mkdir(path.dirname(file), { recursive: true });
    const filters = [
      `fps=${fps}`,
      `scale=${width}:-1:flags=lanczos`,
      "split[a][b]",
      "[a]palettegen=max_colors=128:stats_mode=diff[p]",
      "[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle",
    ];
    const filtergraph = `${filters.slice(0, 3).join(",")};${filters.slice(3).join(";")}`;
    await promisify(execFile)(
      FFMPEG,
      [
        "-v",
        "error",
        "-y",
        "-f",
        "concat",
        "-i",
        path.join(dir, "frames.txt"),
        "-lavfi",
        filtergraph,
        "-loop",
        "0",
        file,
      ],
      { timeout: 120_000 },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
