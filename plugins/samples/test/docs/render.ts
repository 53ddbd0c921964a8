// Renders docs/samples.md from the plugin: the spec's tool summary table from each tool's
// metadata (src/info.ts), and a section per tool with its manifest, its parameters (the
// manifest's JSON Schema, as the model sees them) and worked examples.
import type { LoadedToolManifest } from "@oz0/runtime";
import { SAMPLE_TOOLS, type SampleToolInfo } from "../../src/index.js";

interface Schema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
}

const HEADER = `# The sample tool library

<!-- Generated from plugins/samples by plugins/samples/test/docs/samples-doc.test.ts: edit the
tools' manifests (tools/*.tool.yaml) and metadata (src/info.ts), then run
\`vitest run plugins/samples/test/docs -u\`. -->

The spec's sample library (\`mas-library-samples\`) is the first-party plugin \`samples\`
(\`plugins/samples\`), written with the public SDK only. Its tools are \`kind: Tool\` manifests
under \`tools/\`, each naming the module export that runs it, so an agent names one by its
manifest, \`samples:tools/<file>.tool.yaml\`, as text or as \`{ ref: … }\` (the spec's
\`spec.tools[].ref\`), or by its address, \`samples/<tool>.<function>\`. Its code registers one
memory provider with \`host.addMemory\`, \`notes\`, which keeps notes on oz0's store through
\`MemoryContext.db\` and searches them with the store's full-text index; the memory tools use it
through \`ctx.memory\`. The data the other tools answer from ships in the plugin's \`data/\`
folder, so every answer is the same offline.

\`\`\`sh
oz0 plugin install plugins/samples
oz0 tool call samples/get_attractions.lookup --args '{"city": "Lisbon", "category": "museum"}'
oz0 run samples/trip-planner "Plan my Friday in Lisbon"    # the offline test model plays scripts/trip-planner.yaml
\`\`\`

An agent of another plugin names the tools the same way:

\`\`\`yaml
name: day-planner
tools:
  - ref: samples:tools/memory-search.tool.yaml
  - samples:tools/get-schedule.tool.yaml
\`\`\`
`;

export function renderSamplesDoc(manifests: readonly LoadedToolManifest[]): string {
  const parts = [HEADER, summaryTable()];
  for (const info of SAMPLE_TOOLS) {
    const manifest = manifests.find((entry) => entry.manifest.name === info.id);
    if (manifest === undefined) throw new Error(`no manifest describes tool ${info.id}`);
    parts.push(toolSection(info, manifest));
  }
  return parts.join("\n");
}

function summaryTable(): string {
  const rows = SAMPLE_TOOLS.map(
    (info) =>
      `| ${info.specName} | \`${info.id}\` | ${info.keyOperations} | ${info.externalDeps} | ${info.governance} |`,
  );
  return [
    "## Tool summary",
    "",
    "| Tool | Name | Key operations | External deps | Governance |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

function toolSection(info: SampleToolInfo, loaded: LoadedToolManifest): string {
  const { manifest, file } = loaded;
  const fn = manifest.spec.function;
  const lines = [
    `## ${info.id}`,
    "",
    manifest.description,
    "",
    ...info.notes.map((note) => `- ${note}`),
    "",
    `### \`${info.id}.${fn}\``,
    "",
    `Described by \`${file}\` (an agent lists it as \`samples:${file}\`); runs \`${manifest.spec.export}\` of \`${manifest.spec.entry}\`. A model calls it as \`${info.id}__${fn}\`.`,
    "",
    ...parameterTable(manifest.spec.parameters as Schema),
    "",
  ];
  for (const example of info.examples) {
    lines.push(
      `\`${info.id}.${fn}\` with \`${JSON.stringify(example.args)}\` returns:`,
      "",
      "```json",
      JSON.stringify(example.result, null, 2),
      "```",
      "",
    );
  }
  return lines.join("\n");
}

function parameterTable(schema: Schema): string[] {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return ["No parameters."];
  const required = new Set(schema.required ?? []);
  return [
    "| Parameter | Type | Required | Default | Description |",
    "|---|---|---|---|---|",
    ...properties.map(([name, property]) => {
      const fallback = property.default === undefined ? "—" : `\`${JSON.stringify(property.default)}\``;
      const needed = required.has(name) ? "yes" : "no";
      return `| \`${name}\` | ${typeOf(property)} | ${needed} | ${fallback} | ${cell(property.description ?? "")} |`;
    }),
  ];
}

function typeOf(schema: Schema): string {
  if (schema.enum !== undefined) return schema.enum.map((value) => `\`${String(value)}\``).join(" \\| ");
  const type = typeof schema.type === "string" ? schema.type : (schema.type?.join(" or ") ?? "any");
  const bounds: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    bounds.push(`${schema.minimum}–${schema.maximum}`);
  else if (schema.minimum !== undefined) bounds.push(`at least ${schema.minimum}`);
  if (schema.maxLength !== undefined) bounds.push(`at most ${schema.maxLength} chars`);
  if (schema.pattern !== undefined) bounds.push(`\`${schema.pattern}\``);
  return bounds.length === 0 ? type : `${type} (${bounds.join(", ")})`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
