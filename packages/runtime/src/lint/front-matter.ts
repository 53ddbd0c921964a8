// Finds a Markdown file's YAML front matter by character offsets, so lint can read it with
// positions and --fix can rewrite inside it and leave the body untouched. It reads the
// fences as the SDK's agent and skill parsers do: a `---` first line, then `---` or `...`.

export interface FrontMatterRange {
  /** Offset of the YAML's first character (after the opening fence's line break). */
  readonly start: number;
  /** Offset of the closing fence's line: the YAML is `text.slice(start, end)`. */
  readonly end: number;
  /** Lines of the file before the YAML. */
  readonly lineOffset: number;
}

const FENCE = /^---[ \t]*\r?$/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/** The front matter's range, or why there is none. */
export function findFrontMatter(text: string): FrontMatterRange | { readonly problem: string } {
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const lines = text.slice(bom).split("\n");
  if (!FENCE.test(lines[0] ?? "")) {
    return {
      problem: "the file must start with YAML front matter: a --- line, the YAML, then another --- line",
    };
  }
  let offset = bom + (lines[0]?.length ?? 0) + 1;
  const start = offset;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (CLOSING_FENCE.test(line)) return { start, end: offset, lineOffset: 1 };
    offset += line.length + 1;
  }
  return { problem: "the front matter opened by --- on line 1 is never closed by a --- line" };
}
