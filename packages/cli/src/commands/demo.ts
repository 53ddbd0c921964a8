// `oz0 demo [dir]`: loads a plugin folder (the sample support-triage plugin by default),
// shows its parts by address with the names a model sees, and calls one of its functions.
import { fileURLToPath } from "node:url";
import { loadPluginDir } from "@oz0/runtime";
import { formatAddress, modelVisibleName } from "@oz0/sdk";
import { buildTool } from "@oz0/sdk/internal";
import { callFunction, testToolContext } from "@oz0/sdk/testing";
import type { Command } from "commander";
import type { Output } from "../output.js";

const SAMPLE_PLUGIN = fileURLToPath(new URL("../../../../examples/support-triage", import.meta.url));

interface DemoReport {
  plugin: string;
  version: string;
  agents: { address: string; tools: string[] }[];
  functions: { address: string; modelName: string }[];
  skills: string[];
  call: { address: string; args: unknown; result: unknown };
}

export function registerDemo(program: Command, out: Output): void {
  program
    .command("demo")
    .description("load a plugin folder, list its parts by address, and call one of its functions")
    .argument("[dir]", "plugin folder", SAMPLE_PLUGIN)
    .action(async (dir: string) => out.result(await demo(dir), drawDemo));
}

async function demo(dir: string): Promise<DemoReport> {
  const loaded = await loadPluginDir(dir);
  const plugin = loaded.manifest.name;
  const tools = loaded.code?.registrations("tool") ?? [];
  const functions: DemoReport["functions"] = [];
  let first: { tool: string; fn: string } | undefined;
  for (const { spec } of tools) {
    const built = await buildTool(spec, testToolContext({ pluginId: plugin }));
    for (const fn of built.functions) {
      first ??= { tool: spec.name, fn: fn.name };
      functions.push({
        address: formatAddress({ kind: "function", plugin, tool: spec.name, function: fn.name }),
        modelName: modelVisibleName(spec.name, fn.name),
      });
    }
  }
  if (first === undefined) throw new Error(`plugin '${plugin}' has no function to call`);
  const args = { id: 7 };
  const result = await callFunction(loaded.code!, `${first.tool}.${first.fn}`, args);
  return {
    plugin,
    version: loaded.manifest.version,
    agents: loaded.agents.map((agent) => ({
      address: `${plugin}/${agent.definition.name}`,
      tools: agent.definition.tools ?? [],
    })),
    functions,
    skills: loaded.skills.map((skill) => `${plugin}/${skill.name}`),
    call: { address: `${plugin}/${first.tool}.${first.fn}`, args, result },
  };
}

function drawDemo(report: DemoReport): string {
  const lines = [`plugin ${report.plugin} ${report.version}`, "", "agents"];
  for (const agent of report.agents) lines.push(`  ${agent.address}  tools: ${agent.tools.join(", ")}`);
  lines.push("", "functions (address → name a model sees)");
  for (const fn of report.functions) lines.push(`  ${fn.address} → ${fn.modelName}`);
  lines.push("", "skills", ...report.skills.map((skill) => `  ${skill}`), "");
  lines.push(`call ${report.call.address} ${JSON.stringify(report.call.args)}`);
  lines.push(`  → ${JSON.stringify(report.call.result)}`);
  return lines.join("\n");
}
