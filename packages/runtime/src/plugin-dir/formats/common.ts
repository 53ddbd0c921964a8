// What the foreign-format readers share: front matter split from a Markdown file, the refusals
// collected while reading (every part oz0 cannot honour, each at its file, line and field), and
// the bundled files of a skill folder, which an agent reads with oz.skill's `file` argument.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { Oz0Error, parseSkillFile } from "@oz0/sdk";
import { parseYaml, stringifyYaml, YAML_LIMITS } from "@oz0/sdk/internal";
import { listInPlugin, readInPlugin } from "../confine.js";
import type { LoadedSkill } from "../load.js";

/** One part of a foreign plugin that oz0 cannot honour, and why. */
export interface FormatRefusal {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The field, or "" for the whole file or folder. */
  readonly field: string;
  readonly message: string;
}

/** Where refusals are collected: a reader refuses every part it cannot honour, then throws once. */
export class Refusals {
  readonly list: FormatRefusal[] = [];
  add(file: string, field: string, message: string, line = 1): void {
    this.list.push({ file, line, column: 1, field, message });
  }
  /** Throws INVALID_PLUGIN listing every refusal, when there is one. */
  throwIfAny(dir: string, format: string): void {
    if (this.list.length === 0) return;
    const lines = this.list
      .map(
        (r) =>
          `\n  - ${r.file}:${r.line}:${r.column} OZ-S030 ${r.field === "" ? "" : `${r.field}: `}${r.message}`,
      )
      .join("");
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${dir} is a ${format} that oz0 cannot install as it is:${lines}\nChange or remove these parts (docs/compat.md says what maps onto oz0).`,
      { data: { detail: "unsupported plugin format parts", format, refusals: this.list } },
    );
  }
}

export interface FrontMatter {
  readonly fields: Record<string, unknown>;
  readonly body: string;
  /** The 1-based line of each top-level key. */
  readonly lines: Record<string, number>;
}

/** The front matter and body of a Markdown file, or a refusal when it has none that parses. */
export function frontMatter(text: string, file: string, refusals: Refusals): FrontMatter | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (match === null) {
    refusals.add(
      file,
      "",
      "has no YAML front matter between --- lines; it needs at least name and description",
    );
    return undefined;
  }
  let fields: unknown;
  try {
    fields = parseYaml(match[1] ?? "", { maxAliasCount: YAML_LIMITS.maxAliases });
  } catch (error) {
    refusals.add(file, "", `its front matter is not YAML: ${(error as Error).message}`);
    return undefined;
  }
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    refusals.add(file, "", "its front matter is not a map of fields");
    return undefined;
  }
  const lines: Record<string, number> = {};
  (match[1] ?? "").split(/\r?\n/).forEach((line, index) => {
    const key = /^([A-Za-z0-9_-]+)\s*:/.exec(line)?.[1];
    if (key !== undefined && lines[key] === undefined) lines[key] = index + 2;
  });
  return { fields: fields as Record<string, unknown>, body: match[2] ?? "", lines };
}

/** Bundled files oz.skill serves, at most this many per skill and this size each. */
export const SKILL_FILE_LIMITS = { maxFiles: 64, maxBytes: 256 * 1024 } as const;

/**
 * The text files of the skill folder `dir` (inside the plugin root) other than SKILL.md, by path
 * inside the skill folder. A file that is not UTF-8 text (a font, an image) is not served, and
 * one over the limits is refused, so a reference the skill names is never silently missing.
 */
export async function skillFiles(
  root: string,
  dir: string,
  refusals: Refusals,
): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const inPlugin = (rel: string) => (dir === "." ? rel : `${dir}/${rel}`);
  const walk = async (sub: string): Promise<void> => {
    for (const name of await listInPlugin(root, sub === "" ? dir : inPlugin(sub))) {
      const rel = sub === "" ? name : `${sub}/${name}`;
      if (rel === "SKILL.md" || rel === ".git") continue;
      const info = await stat(join(root, dir, rel));
      if (info.isDirectory()) {
        await walk(rel);
        continue;
      }
      if (info.size > SKILL_FILE_LIMITS.maxBytes) {
        refusals.add(
          inPlugin(rel),
          "",
          `is ${info.size} bytes; oz.skill serves bundled files of at most ${SKILL_FILE_LIMITS.maxBytes} bytes`,
        );
        continue;
      }
      const text = await readInPlugin(root, inPlugin(rel));
      if (text.includes("\u0000") || text.includes("\uFFFD")) continue;
      if (Object.keys(files).length >= SKILL_FILE_LIMITS.maxFiles) {
        refusals.add(
          inPlugin(rel),
          "",
          `oz.skill serves at most ${SKILL_FILE_LIMITS.maxFiles} files per skill`,
        );
        continue;
      }
      files[rel] = text;
    }
  };
  await walk("");
  return files;
}

/** Agent Skills front matter keys oz0 reads as they are. */
const SKILL_KEYS = new Set(["name", "description", "license", "metadata", "compatibility"]);
const COMPATIBILITY_MAX = 500;

/**
 * A skill folder `dir` (holding SKILL.md) in the open Agent Skills format, or Claude Code's
 * flavour of it (`extra` names the keys that flavour adds and what each becomes).
 */
export async function readForeignSkill(
  root: string,
  dir: string,
  refusals: Refusals,
  extra: Readonly<Record<string, string>> = {},
): Promise<LoadedSkill | undefined> {
  const file = dir === "." ? "SKILL.md" : `${dir}/SKILL.md`;
  const text = await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes });
  const read = frontMatter(text, file, refusals);
  const files = await skillFiles(root, dir, refusals);
  if (read === undefined) return undefined;
  const { fields, lines } = read;
  const kept: Record<string, unknown> = {};
  let body = read.body;
  const before = refusals.list.length;
  for (const [key, value] of Object.entries(fields)) {
    const line = lines[key] ?? 1;
    if (key === "allowed-tools") {
      refusals.add(
        file,
        key,
        "pre-approves tools while the skill is active, and an oz0 skill grants no tools: an agent's tools: and the tenant's policy decide what it may call. Remove allowed-tools and grant those tools to the agent that uses the skill",
        line,
      );
      continue;
    }
    if (key === "compatibility") {
      if (typeof value !== "string" || value.length === 0 || value.length > COMPATIBILITY_MAX) {
        refusals.add(file, key, `is text of 1 to ${COMPATIBILITY_MAX} characters`, line);
        continue;
      }
      // The agent that reads the skill is told what it needs, as the format intends.
      body = `Compatibility: ${value}\n\n${body}`;
      continue;
    }
    if (key === "version" && extra.version !== undefined) {
      if (typeof value !== "string" && typeof value !== "number") {
        refusals.add(file, key, "is not a version", line);
        continue;
      }
      kept.metadata = { ...(kept.metadata as Record<string, string> | undefined), version: String(value) };
      continue;
    }
    if (extra[key] !== undefined) {
      refusals.add(file, key, extra[key] ?? "", line);
      continue;
    }
    if (!SKILL_KEYS.has(key)) {
      refusals.add(
        file,
        key,
        `is not an Agent Skills field oz0 knows (it reads ${[...SKILL_KEYS, "allowed-tools"].join(", ")}); remove it`,
        line,
      );
      continue;
    }
    if (key === "metadata" && kept.metadata !== undefined && typeof value === "object" && value !== null) {
      kept.metadata = { ...(value as Record<string, string>), ...(kept.metadata as Record<string, string>) };
      continue;
    }
    kept[key] = value;
  }
  if (refusals.list.length > before) return undefined;
  try {
    const skill = parseSkillFile(`---\n${stringifyYaml(kept)}---\n${body}`, { file });
    return { ...skill, file, files };
  } catch (error) {
    const issues = (error as Oz0Error).data?.issues as
      | { path: (string | number)[]; message: string }[]
      | undefined;
    for (const issue of issues ?? [{ path: [], message: (error as Error).message }]) {
      const field = String(issue.path[0] ?? "");
      refusals.add(file, field, issue.message, lines[field] ?? 1);
    }
    return undefined;
  }
}
