// Renders docs/std-tools.md from the code: the spec's tool summary table from each tool's
// metadata, and a section per tool with its functions, their parameters (from the input
// schemas the model sees) and worked examples.
import { buildTool } from "@oz0/sdk/internal";
import { testToolContext } from "@oz0/sdk/testing";
import { STD_TOOLS, type ToolInfo } from "../../src/index.js";
import type { StdHost } from "../helpers.js";

interface Schema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly Schema[];
  readonly default?: unknown;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly items?: Schema;
  readonly additionalProperties?: Schema;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
}

const HEADER = `# The std tool library

<!-- Generated from plugins/std/src by plugins/std/test/docs/std-tools-doc.test.ts: edit the
tools' metadata and input schemas, then run \`vitest run plugins/std/test/docs -u\`. -->

oz0's built-in tools come in the first-party plugin \`std\` (\`plugins/std\`), written with the
public SDK only, exactly as a third-party plugin is. Every tenant gets it once, when it comes
into being: the \`default\` tenant when oz0 first opens a home, another tenant with its first
install. It is removable like any plugin, and stays removed (\`oz0 plugin remove std\`;
\`oz0 plugin install plugins/std\` brings it back). Each function is addressed as
\`std/<tool>.<function>\` (for example \`oz0 tool call std/json.get --args '{"data": "{}", "path": ""}'\`)
and a model sees it as \`<tool>__<function>\` (\`json__get\`). Failures are oz0 errors
(\`docs/errors.md\`): \`INVALID_INPUT\` names the argument that is wrong, \`LIMIT_EXCEEDED\` the
bound a call went past, \`NETWORK_ERROR\` an outside service that failed, and \`POLICY_VIOLATION\`
an http call the SSRF protection refused.

The rest of the spec's tool table (web_search, verify_fact, memory_search, memory_get,
get_schedule, get_attractions) is the sample library, the plugin \`samples\`: see
[samples.md](samples.md).

## Configuration

An operator sets the plugin's config for a tenant:

\`\`\`yaml
http:
  allowHosts: ["intranet.example", "10.0.0.5:8080"]   # internal hosts the http tool may reach
text:
  regexTimeoutMs: 1000                                # how long one regular expression may run
\`\`\`
`;

export async function renderStdToolsDoc(host: StdHost): Promise<string> {
  const parts = [HEADER, summaryTable()];
  for (const info of STD_TOOLS) parts.push(await toolSection(host, info));
  return `${parts.join("\n")}`;
}

function summaryTable(): string {
  const rows = STD_TOOLS.map(
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

async function toolSection(host: StdHost, info: ToolInfo): Promise<string> {
  const registration = host.registration("tool", info.id);
  if (registration === undefined) throw new Error(`the std plugin registers no tool '${info.id}'`);
  const tool = await buildTool(registration.spec, testToolContext({ pluginId: "std" }));
  const lines = [`## ${info.id}`, "", info.description, "", ...info.notes.map((note) => `- ${note}`), ""];
  for (const fn of tool.functions) {
    lines.push(
      `### \`${info.id}.${fn.name}\``,
      "",
      `${fn.description} A model calls it as \`${info.id}__${fn.name}\`.`,
      "",
    );
    lines.push(...parameterTable(fn.inputSchema as Schema), "");
    for (const example of info.examples.filter((e) => e.function === fn.name)) {
      lines.push(
        `\`${info.id}.${fn.name}\` with \`${JSON.stringify(example.args)}\` returns${example.checked ? "" : " (for example)"}:`,
        "",
        "```json",
        JSON.stringify(example.result, null, 2),
        "```",
        "",
      );
    }
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
      const needed = required.has(name) && property.default === undefined ? "yes" : "no";
      return `| \`${name}\` | ${typeOf(property)} | ${needed} | ${cell(fallback)} | ${cell(property.description ?? "")} |`;
    }),
  ];
}

function typeOf(schema: Schema): string {
  if (schema.enum !== undefined) return schema.enum.map((value) => `\`${String(value)}\``).join(" \\| ");
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(" or ");
  const type = typeof schema.type === "string" ? schema.type : (schema.type?.join(" or ") ?? "any");
  if (type === "object" && schema.additionalProperties !== undefined) {
    return `object of ${typeOf(schema.additionalProperties)}`;
  }
  const bounds: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    bounds.push(`${schema.minimum}–${schema.maximum}`);
  if (schema.maxLength !== undefined) bounds.push(`at most ${schema.maxLength} chars`);
  return bounds.length === 0 ? type : `${type} (${bounds.join(", ")})`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
