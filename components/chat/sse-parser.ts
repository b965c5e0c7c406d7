// Reads a Server-Sent Events byte stream, decoded to text, frame by frame (the format
// server/session/event-frames.ts writes, and any other that follows the SSE rules): lines end in
// LF, CRLF or CR, a blank line ends a frame, `data:` lines join with "\n", `id:` and `event:` name
// the frame, lines starting with `:` are comments (keep-alive pings) and are skipped, one space
// after the colon is dropped. A frame without data is not delivered. Text may arrive cut anywhere,
// even between the CR and LF of one line end. Pure: no I/O.

export type SseFrame = { id: string | null; event: string; data: string };

export type SseParser = {
  /** Feeds the next piece of text; complete frames go to `onFrame` in order. */
  push: (text: string) => void;
};

export function createSseParser(onFrame: (frame: SseFrame) => void): SseParser {
  let pending = "";
  let isAfterCr = false; // the last piece ended in CR: an LF opening the next one ends no line
  let data: string[] = [];
  let event = "";
  let id: string | null = null;

  const readLine = (line: string) => {
    if (line === "") {
      if (data.length > 0) onFrame({ id, event: event || "message", data: data.join("\n") });
      [data, event, id] = [[], "", null];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  };

  return {
    push(text) {
      if (isAfterCr && text.startsWith("\n")) text = text.slice(1);
      isAfterCr = text.endsWith("\r");
      const lines = (pending + text).split(/\r\n|\r|\n/);
      pending = lines.pop()!;
      for (const line of lines) readLine(line);
    },
  };
}
