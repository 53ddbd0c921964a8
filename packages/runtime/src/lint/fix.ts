// --fix: rewrites scalars in the plugin's YAML files through the yaml package's concrete syntax
// tree, so only the scalar changes: its quoting style, the comments, the indentation and every
// other byte of the file stay as the author wrote them. In a Markdown agent, only the front
// matter is parsed and rewritten; the body is left alone.
import { Composer, CST, isScalar, Parser } from "@oz0/sdk/internal";
import { readInPlugin, writeInPlugin } from "../plugin-dir/index.js";
import type { LintFix } from "./finding.js";
import { findFrontMatter } from "./front-matter.js";

/** Rewrites the scalars in YAML `text`; a fix whose path is not a scalar written in the text is skipped. */
export function fixYaml(
  text: string,
  fixes: readonly Pick<LintFix, "path" | "replacement">[],
): { text: string; applied: number } {
  const tokens = [...new Parser().parse(text)];
  // The composer's own duplicate-key check compares each key with every earlier one of its map,
  // which is quadratic; lint read the file safely first, and that refused duplicates.
  const composer = new Composer({ keepSourceTokens: true, uniqueKeys: false });
  const [doc] = composer.compose(tokens, true, text.length);
  if (doc === undefined) return { text, applied: 0 };
  let applied = 0;
  for (const fix of fixes) {
    const node = doc.getIn(fix.path, true);
    if (!isScalar(node) || node.srcToken === undefined || !CST.isScalar(node.srcToken)) continue;
    CST.setScalarValue(node.srcToken, fix.replacement);
    applied++;
  }
  return { text: applied === 0 ? text : tokens.map((token) => CST.stringify(token)).join(""), applied };
}

/** Applies `fixes` to the files of the plugin at `root`; returns how many it applied. */
export async function applyFixes(root: string, fixes: readonly LintFix[]): Promise<number> {
  const byFile = new Map<string, LintFix[]>();
  for (const fix of fixes) byFile.set(fix.file, [...(byFile.get(fix.file) ?? []), fix]);
  let applied = 0;
  for (const [file, fileFixes] of byFile) {
    const text = await readInPlugin(root, file);
    const fixed = /\.md$/i.test(file) ? fixFrontMatter(text, fileFixes) : fixYaml(text, fileFixes);
    if (fixed.applied === 0) continue;
    await writeInPlugin(root, file, fixed.text);
    applied += fixed.applied;
  }
  return applied;
}

function fixFrontMatter(text: string, fixes: readonly LintFix[]): { text: string; applied: number } {
  const range = findFrontMatter(text);
  if ("problem" in range) return { text, applied: 0 };
  const fixed = fixYaml(text.slice(range.start, range.end), fixes);
  return { text: text.slice(0, range.start) + fixed.text + text.slice(range.end), applied: fixed.applied };
}
