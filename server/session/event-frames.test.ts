// The SSE frames of the chat's live events: their exact bytes, one line of JSON per event whatever
// the text holds, and one serialisation per event object, however many subscribers write it.
import { describe, expect, it } from "vitest";

import { AppError } from "../errors.ts";
import { errorFrame, eventFrame, eventFrames } from "./event-frames.ts";
import type { SessionEventDto } from "./event-types.ts";

function event(id: string, text: string): SessionEventDto {
  return {
    id,
    sessionId: "s1",
    turnId: "t1",
    type: "text.delta",
    data: { messageId: "m1", partIndex: 0, text },
    createdAt: new Date("2026-11-26T10:00:00Z"),
  };
}

describe("event frames", () => {
  it("writes the id line and the event's JSON on one data line (the session id is not repeated)", () => {
    expect(eventFrame(event("12", "a\nb\r\nc"))).toBe(
      'id: 12\ndata: {"id":"12","turnId":"t1","type":"text.delta",' +
        '"data":{"messageId":"m1","partIndex":0,"text":"a\\nb\\r\\nc"},"createdAt":"2026-11-26T10:00:00.000Z"}\n\n',
    );
  });

  it("serialises an event object once: later writes reuse the first frame", () => {
    const delta = event("13", "first");
    const frame = eventFrame(delta);
    (delta.data as { text: string }).text = "changed after the first write";
    expect(eventFrame(delta)).toBe(frame);
    expect(eventFrame(event("13", "changed after the first write"))).not.toBe(frame);
  });

  it("writes a batch as its frames in order", () => {
    const batch = [event("14", "x"), event("15", "y")];
    expect(eventFrames(batch)).toBe(eventFrame(batch[0]!) + eventFrame(batch[1]!));
  });

  it("ends a failed stream with the error's code and words", () => {
    expect(errorFrame(new AppError("unavailable:database"))).toBe(
      `event: error\ndata: ${JSON.stringify({
        code: "unavailable:database",
        message: "The database is unavailable right now; Patchbay retries by itself, try again in a moment.",
      })}\n\n`,
    );
  });
});
