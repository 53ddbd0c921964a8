// Line diffs: the lines a diff card shows, and the unified patch a skill proposal's pull
// request carries. A longest-common-subsequence diff, small enough to read and exact for the
// sizes a card or a SKILL.md has; past a size where that costs too much, every old line is
// shown removed and every new one added, which is still a true diff.

/** One line of a diff: kept, removed from the before text, or added in the after text. */
export interface DiffLine {
  readonly op: "same" | "removed" | "added";
  readonly text: string;
}

/** Above this many line pairs the diff stops looking for common lines. */
const MAX_CELLS = 4_000_000;

/** Splits text into lines; a final newline does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The lines that turn `before` into `after`, in order.
 * @example lineDiff("a\nb\n", "a\nc\n") // same a, removed b, added c
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > MAX_CELLS) {
    return [
      ...a.map((text) => ({ op: "removed" as const, text })),
      ...b.map((text) => ({ op: "added" as const, text })),
    ];
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ op: "same", text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      lines.push({ op: "removed", text: a[i++]! });
    } else {
      lines.push({ op: "added", text: b[j++]! });
    }
  }
  while (i < a.length) lines.push({ op: "removed", text: a[i++]! });
  while (j < b.length) lines.push({ op: "added", text: b[j++]! });
  return lines;
}

/**
 * A unified patch (`git apply` reads it) that turns the file at `path` from `before` into
 * `after`; `before` undefined creates the file. Empty when nothing changes.
 * @example unifiedPatch("skills/tone/SKILL.md", undefined, "---\nname: tone\n---\nBe brief.\n")
 */
export function unifiedPatch(path: string, before: string | undefined, after: string, context = 3): string {
  const lines = lineDiff(before ?? "", after);
  if (lines.every((line) => line.op === "same")) return "";
  const header =
    before === undefined
      ? [`diff --git a/${path} b/${path}`, "new file mode 100644", "--- /dev/null", `+++ b/${path}`]
      : [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`];
  return `${[...header, ...hunks(lines, context)].join("\n")}\n`;
}

/** The hunks of a diff, each changed run with `context` kept lines around it. */
function hunks(lines: readonly DiffLine[], context: number): string[] {
  const changed = lines.flatMap((line, index) => (line.op === "same" ? [] : [index]));
  const out: string[] = [];
  let index = 0;
  while (index < changed.length) {
    const start = Math.max(0, changed[index]! - context);
    let end = changed[index]! + context;
    // Changes closer than twice the context share one hunk.
    while (index + 1 < changed.length && changed[index + 1]! - context <= end + 1) {
      index++;
      end = changed[index]! + context;
    }
    end = Math.min(lines.length - 1, end);
    index++;
    let oldStart = 1;
    let newStart = 1;
    for (const line of lines.slice(0, start)) {
      if (line.op !== "added") oldStart++;
      if (line.op !== "removed") newStart++;
    }
    const body = lines.slice(start, end + 1);
    const oldCount = body.filter((line) => line.op !== "added").length;
    const newCount = body.filter((line) => line.op !== "removed").length;
    out.push(
      `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`,
    );
    for (const line of body)
      out.push(`${line.op === "same" ? " " : line.op === "removed" ? "-" : "+"}${line.text}`);
  }
  return out;
}
