// The browser's SSE reader against the server's frame writer (server/session/event-frames.ts): the
// frames a stream writes come back whole and in order wherever the text is cut, pings are skipped,
// and the SSE rules the writer does not use itself (CRLF and CR line ends, multi-line data, a
// field without a value) are read as the standard says.
import { describe, expect, it } from "vitest";

import { AppError } from "@/server/errors.ts";
import { errorFrame, eventFrames, OPEN_FRAME, PING_FRAME } from "@/server/session/event-frames.ts";
import type { SessionEventDto } from "@/server/session/event-types.ts";

import { createSseParser, type SseFrame } from "./sse-parser.ts";

function read(pieces: string[]): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = createSseParser((frame) => frames.push(frame));
  for (const piece of pieces) parser.push(piece);
  return frames;
}

const createdAt = new Date("2026-11-26T10:00:00.123Z");
const events: SessionEventDto[] = [
  {
    id: "41",
    sessionId: "s1",
    turnId: "t1",
    type: "text.delta",
    data: { text: "one\ntwo\r\n: not a comment" },
    createdAt,
  },
  { id: "42", sessionId: "s1", turnId: null, type: "tools.changed", data: { revision: 3 }, createdAt },
];

describe("createSseParser", () => {
  const stream = OPEN_FRAME + eventFrames(events) + PING_FRAME + errorFrame(new AppError("unavailable:database"));

  it("reads back what the server writes: each event's id and JSON, then the error frame", () => {
    const frames = read([stream]);
    expect(frames.map((frame) => [frame.id, frame.event])).toEqual([
      ["41", "message"],
      ["42", "message"],
      [null, "error"],
    ]);
    expect(JSON.parse(frames[0]!.data)).toEqual({
      id: "41",
      turnId: "t1",
      type: "text.delta",
      data: { text: "one\ntwo\r\n: not a comment" },
      createdAt: "2026-11-26T10:00:00.123Z",
    });
    expect(JSON.parse(frames[2]!.data)).toEqual({
      code: "unavailable:database",
      message: new AppError("unavailable:database").message,
    });
  });

  it("gives the same frames however the text is cut", () => {
    const whole = read([stream]);
    for (let cut = 1; cut < stream.length; cut++) {
      expect(read([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
    }
    expect(read([...stream])).toEqual(whole);
  });

  it("reads CRLF and CR line ends, even a CRLF cut in two, and joins data lines", () => {
    const text = "id: 7\r\ndata: a\r\ndata:b\r\n\r\nevent: x\rdata\r\r";
    const expected = [
      { id: "7", event: "message", data: "a\nb" },
      { id: null, event: "x", data: "" },
    ];
    expect(read([text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(read([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });

  it("delivers nothing for comments, frames without data, or a frame not yet ended", () => {
    expect(read([": ping\n\n", "id: 3\n\n", "event: error\n\n", "data: half"])).toEqual([]);
  });
});
