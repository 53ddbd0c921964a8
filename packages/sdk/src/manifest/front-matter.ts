// Splits a Markdown file (an agent or a SKILL.md) into its YAML front matter and its body,
// keeping the line where each starts so problems in either are reported at the file's lines.
import { invalidManifest } from "./issues.js";

export interface FrontMatterParts {
  /** The YAML between the two `---` lines. */
  readonly yaml: string;
  /** Lines of the file before `yaml` (the opening `---`). */
  readonly yamlLineOffset: number;
  /** Everything after the closing `---` line. */
  readonly body: string;
  /** 1-based line of the file where the body starts. */
  readonly bodyLine: number;
}

const FENCE = /^---[ \t]*\r?$/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/** Splits `text` at its front matter; INVALID_MANIFEST when it has none or it is not closed. */
export function splitFrontMatter(text: string, file: string): FrontMatterParts {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (!FENCE.test(lines[0] ?? "")) {
    throw invalidManifest([
      {
        file,
        line: 1,
        column: 1,
        path: [],
        message: "the file must start with YAML front matter: a --- line, the YAML, then another --- line",
      },
    ]);
  }
  const close = lines.findIndex((line, index) => index > 0 && CLOSING_FENCE.test(line));
  if (close === -1) {
    throw invalidManifest([
      {
        file,
        line: 1,
        column: 1,
        path: [],
        message: "the front matter opened by --- on line 1 is never closed by a --- line",
      },
    ]);
  }
  return {
    yaml: lines
      .slice(1, close)
      .map((line) => line.replace(/\r$/, ""))
      .join("\n"),
    yamlLineOffset: 1,
    body: lines.slice(close + 1).join("\n"),
    bodyLine: close + 2,
  };
}
