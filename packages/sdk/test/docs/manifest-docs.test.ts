// docs/manifest.md is the reference of every manifest field. These tests walk the zod schemas,
// so a field added, renamed or removed on one side only fails them, and they run every example
// and every bad value the page shows through the parsers, so its messages stay the real ones.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import type * as z from "zod";
import { isOz0Error } from "../../src/errors/index.js";
import {
  agentDefinitionSchema,
  FORBIDDEN_KEYS,
  flowDefinitionSchema,
  type ManifestIssue,
  parseAgentFile,
  parsePluginManifest,
  parseSkillFile,
  parseToolManifest,
  pluginManifestSchema,
  skillFrontMatterSchema,
  toolManifestSchema,
  YAML_LIMITS,
} from "../../src/manifest/index.js";

const text = readFileSync(new URL("../../../../docs/manifest.md", import.meta.url), "utf8");

type Schema = z.core.$ZodType;

/** The parts of a zod 4 definition that hold other schemas. */
interface Def {
  readonly type: string;
  readonly shape?: Record<string, Schema>;
  readonly innerType?: Schema;
  readonly in?: Schema;
  readonly out?: Schema;
  readonly element?: Schema;
  readonly options?: readonly Schema[];
  readonly valueType?: Schema;
  readonly left?: Schema;
  readonly right?: Schema;
  readonly items?: readonly Schema[];
  readonly getter?: () => Schema;
}

/** How the docs write the key of a map whose keys are names, such as `uses.<plugin>.version`. */
const RECORD_KEYS: Record<string, string> = { uses: "<plugin>" };

/**
 * Every key of a schema's maps, nested ones included, as the docs head them (`model.use`,
 * `skills.propose.into`). Lists, unions and wrappers are looked through; `stop` holds schemas
 * documented in their own section.
 */
function fieldPaths(schema: Schema, stop: readonly Schema[] = [], prefix = ""): string[] {
  if (stop.includes(schema)) return [];
  const def = schema._zod.def as unknown as Def;
  const inner = (...schemas: (Schema | undefined)[]) => [
    ...new Set(schemas.flatMap((s) => (s === undefined ? [] : fieldPaths(s, stop, prefix)))),
  ];
  switch (def.type) {
    case "object":
      return Object.entries(def.shape ?? {}).flatMap(([key, value]) => [
        `${prefix}${key}`,
        ...fieldPaths(value, stop, `${prefix}${key}.`),
      ]);
    case "record": {
      const placeholder = RECORD_KEYS[prefix.slice(0, -1)] ?? "<key>";
      return def.valueType === undefined ? [] : fieldPaths(def.valueType, stop, `${prefix}${placeholder}.`);
    }
    case "pipe":
      return inner(def.in, def.out);
    case "union":
      return inner(...(def.options ?? []));
    case "intersection":
      return inner(def.left, def.right);
    case "tuple":
      return inner(...(def.items ?? []));
    case "lazy":
      return inner(def.getter?.());
    case "array":
      return inner(def.element);
    default:
      return inner(def.innerType);
  }
}

interface Section {
  readonly title: string;
  readonly schema: Schema;
  readonly stop?: readonly Schema[];
  /** Parses a document holding `fields` beside the section's smallest valid one. */
  readonly parse: (fields: Record<string, unknown>) => unknown;
  /** Where the section's fields sit in an issue's path. */
  readonly root: readonly (string | number)[];
}

const PLUGIN = { name: "support-triage", version: "1.2.0" };
const FLOW = { name: "notes", steps: [{ id: "prs", call: "github/oz0_github.list_pull_requests" }] };
const SKILL = { name: "research", description: "Finds sources on the web." };
const TOOL = {
  kind: "Tool",
  name: "memory_search",
  description: "Semantic memory search.",
  spec: { entry: "tools/memory-search.js", function: "search" },
};

const SECTIONS: readonly Section[] = [
  {
    title: "plugin.yaml",
    schema: pluginManifestSchema,
    stop: [agentDefinitionSchema, flowDefinitionSchema],
    parse: (fields) => parsePluginManifest(stringify({ ...PLUGIN, ...fields }), { file: "plugin.yaml" }),
    root: [],
  },
  {
    title: "Agent definitions",
    schema: agentDefinitionSchema,
    parse: (fields) =>
      parseAgentFile(stringify({ name: "triage", ...fields }), { file: "agents/triage.yaml" }),
    root: [],
  },
  {
    title: "SKILL.md front matter",
    schema: skillFrontMatterSchema,
    parse: (fields) =>
      parseSkillFile(`---\n${stringify({ ...SKILL, ...fields })}---\nSearch first.\n`, {
        file: "skills/research/SKILL.md",
      }),
    root: [],
  },
  {
    title: "YAML flows",
    schema: flowDefinitionSchema,
    parse: (fields) =>
      parsePluginManifest(stringify({ ...PLUGIN, flows: [{ ...FLOW, ...fields }] }), { file: "plugin.yaml" }),
    root: ["flows", 0],
  },
  {
    title: "kind: Tool manifests",
    schema: toolManifestSchema,
    parse: (fields) =>
      parseToolManifest(stringify({ ...TOOL, ...fields }), { file: "tools/memory-search.tool.yaml" }),
    root: [],
  },
];

/** The text under each `## ` heading, up to the next one. */
function sectionsOf(page: string): Map<string, string> {
  return new Map(
    page
      .split(/^## /m)
      .slice(1)
      .map((part) => [part.slice(0, part.indexOf("\n")).trim(), part.slice(part.indexOf("\n"))]),
  );
}

/** The fields a section documents, each `### \`field\`` with the text up to the next heading. */
function fieldsOf(section: string): { field: string; body: string }[] {
  return section
    .split(/^### /m)
    .slice(1)
    .flatMap((part) => {
      const heading = /^`([^`]+)`\s*$/.exec(part.slice(0, part.indexOf("\n")));
      return heading === null ? [] : [{ field: heading[1] ?? "", body: part.slice(part.indexOf("\n")) }];
    });
}

const yamlBlocks = (body: string) => [...body.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
const badLines = (body: string) =>
  [...body.matchAll(/^- Bad: `([^`]+)` → `([^`]+)`$/gm)].map((m) => ({
    yaml: m[1] ?? "",
    message: m[2] ?? "",
  }));

function asMap(yaml: string): Record<string, unknown> {
  const value: unknown = parseYaml(yaml);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`example is not a map of fields: ${yaml}`);
  }
  return value as Record<string, unknown>;
}

/** Whether an issue's path and a documented field are one inside the other (`<…>` matches any key). */
function related(issue: ManifestIssue, field: string, root: readonly (string | number)[]): boolean {
  const at = issue.path.slice(root.length).filter((part) => typeof part === "string");
  const documented = field.split(".");
  const shorter = Math.min(at.length, documented.length);
  return (
    shorter > 0 && documented.slice(0, shorter).every((part, i) => part.startsWith("<") || part === at[i])
  );
}

const sections = sectionsOf(text);

for (const section of SECTIONS) {
  describe(`docs/manifest.md, ${section.title}`, () => {
    const body = sections.get(section.title) ?? "";
    const fields = fieldsOf(body);

    it("has its section", () => {
      expect([...sections.keys()]).toContain(section.title);
    });

    it("documents every field of the schema, nested ones included, and no other", () => {
      const documented = fields.map((entry) => entry.field);
      expect(new Set(documented).size, "a field is documented twice").toBe(documented.length);
      expect([...documented].sort()).toEqual(fieldPaths(section.schema, section.stop).sort());
    });

    it("gives every field an example or a bad value", () => {
      const bare = fields.filter(
        (entry) => yamlBlocks(entry.body).length + badLines(entry.body).length === 0,
      );
      expect(bare.map((entry) => entry.field)).toEqual([]);
    });

    it("shows examples that parse", () => {
      const failed: string[] = [];
      for (const { field, body: fieldText } of fields) {
        for (const example of yamlBlocks(fieldText)) {
          try {
            section.parse(asMap(example));
          } catch (error) {
            failed.push(`${field}: ${(error as Error).message}`);
          }
        }
      }
      expect(failed).toEqual([]);
    });

    it("shows bad values with the messages the parser gives, at the field", () => {
      const wrong: string[] = [];
      for (const { field, body: fieldText } of fields) {
        for (const bad of badLines(fieldText)) {
          try {
            section.parse(asMap(bad.yaml));
            wrong.push(`${field}: ${bad.yaml} parsed without an error`);
          } catch (error) {
            if (!isOz0Error(error, "INVALID_MANIFEST")) throw error;
            const issues = (error.data?.issues ?? []) as ManifestIssue[];
            const found = issues.some(
              (issue) => issue.message.includes(bad.message) && related(issue, field, section.root),
            );
            if (!found) wrong.push(`${field}: ${bad.yaml} gave\n${error.message}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  });
}

describe("docs/manifest.md, whole files", () => {
  const files = [...text.matchAll(/^```(?:yaml|markdown) file=(\S+)\n([\s\S]*?)^```$/gm)];

  it("shows a whole-file example of every kind of file", () => {
    const names = files.map((match) => match[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        "plugin.yaml",
        "agents/triage.yaml",
        "agents/triage.md",
        "skills/research/SKILL.md",
        "tools/memory-search.tool.yaml",
      ]),
    );
  });

  it("shows whole files that parse", () => {
    for (const [, file = "", content = ""] of files) {
      const options = { file };
      if (file.endsWith("SKILL.md")) parseSkillFile(content, options);
      else if (file.endsWith(".tool.yaml")) parseToolManifest(content, options);
      else if (file.startsWith("agents/")) parseAgentFile(content, options);
      else parsePluginManifest(content, options);
    }
  });
});

describe("docs/manifest.md, errors", () => {
  it("shows the exact error its bad plugin.yaml gives, as file:line:col", () => {
    const body = sections.get("Errors") ?? "";
    const input = yamlBlocks(body)[0] ?? "";
    const shown = /^```text\n([\s\S]*?)\n^```$/m.exec(body)?.[1];
    expect(() => parsePluginManifest(input, { file: "plugin.yaml" })).toThrow(shown);
    expect(shown).toMatch(/^plugin\.yaml:\d+:\d+: /m);
  });
});

describe("docs/manifest.md, safe YAML", () => {
  const body = sections.get("Safe YAML") ?? "";

  it("states every limit of YAML_LIMITS in its table", () => {
    for (const [name, value] of Object.entries(YAML_LIMITS)) {
      expect(body, name).toMatch(new RegExp(`^\\| [^|]+ \\| ${value}\\b`, "m"));
    }
  });

  it("names every refused key", () => {
    for (const key of FORBIDDEN_KEYS) expect(body).toContain(`\`${key}\``);
  });
});
