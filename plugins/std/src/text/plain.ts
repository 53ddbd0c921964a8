// The text operations that need no regular expression: counting, splitting on a literal
// delimiter, truncating. Lengths and positions count Unicode code points, not UTF-16 units,
// so an emoji is one character as a person counts it.

/** Characters (code points), words (runs of non-space) and lines, as a person counts them. */
export function countText(text: string): { characters: number; words: number; lines: number } {
  let characters = 0;
  for (const _ of text) characters++;
  const words = text.split(/\s+/).filter((word) => word !== "").length;
  // Lines as Python's splitlines() counts them: a final line break does not start a new line.
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lines = text === "" ? 0 : breaks + (/(?:\r\n|\r|\n)$/.test(text) ? 0 : 1);
  return { characters, words, lines };
}

/** `text` cut to at most `maxLength` code points including `ellipsis`, or left whole. */
export function truncateText(
  text: string,
  maxLength: number,
  ellipsis: string,
): { result: string; truncated: boolean } {
  const chars = [...text];
  if (chars.length <= maxLength) return { result: text, truncated: false };
  const mark = [...ellipsis];
  const kept = chars.slice(0, Math.max(0, maxLength - mark.length));
  return { result: [...kept, ...mark].slice(0, maxLength).join(""), truncated: true };
}

/** `text` split on a literal `delimiter`, or on runs of whitespace when it is undefined. */
export function splitText(text: string, delimiter: string | undefined): string[] {
  if (delimiter === undefined) return text.split(/\s+/).filter((part) => part !== "");
  return text.split(delimiter);
}

/**
 * Converts ascending UTF-16 offsets into `text` to code point offsets, in one pass.
 * @example codePointOffsets("😀a", [2, 3]) // [1, 2]
 */
export function codePointOffsets(text: string, offsets: readonly number[]): number[] {
  const converted: number[] = [];
  let unit = 0;
  let point = 0;
  for (const offset of offsets) {
    while (unit < offset) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text, unit + 1);
      unit += pair ? 2 : 1;
      point++;
    }
    converted.push(point);
  }
  return converted;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}
