// A streaming answer's Markdown cut into blocks that no later text can change, so that each frame
// parses only the last block instead of the whole answer again (the cost grew with the answer).
// A cut goes after a blank line that is outside a fenced code block and followed by a line that
// starts at its first column: the next line then opens a new block whatever follows it. An
// indented line after a blank one may continue a list item or an indented code block, so no cut is
// made there. Text with link reference definitions or footnotes is not cut: those tie distant
// blocks together. The blocks joined are the text; once the answer is complete it is parsed whole.
// One difference shows while it streams: list items a blank line apart are drawn as lists of their
// own (a "loose" list), joined when the answer is complete.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TIES_BLOCKS = /^ {0,3}\[[^\]\n]+\]:|\[\^/m; // one line each: no backtracking across the text

/** The text cut at every point no later text can change; the last block is the one still growing. */
export function settledBlocks(text: string): string[] {
  if (TIES_BLOCKS.test(text)) return [text];
  const blocks: string[] = [];
  let fence: string | null = null; // the open fence's marker ("```", "~~~~", ...)
  let blockStart = 0;
  let lineStart = 0;
  let previousBlank = false;
  while (lineStart < text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (fence === null && previousBlank && lineStart > blockStart && /^\S/.test(line)) {
      blocks.push(text.slice(blockStart, lineStart));
      blockStart = lineStart;
    }
    const marker = FENCE.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (
      fence !== null &&
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      !line.slice(line.indexOf(marker) + marker.length).trim()
    )
      fence = null;
    previousBlank = line.trim() === "";
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  blocks.push(text.slice(blockStart));
  return blocks;
}
