// `oz0 plugin install|update|remove|grant|list|inspect|status|pack`: a tenant's installed plugins, and a
// plugin folder packed into one archive. Each command calls the runtime and draws what it
// returns; `--json` prints it as it is.
import { writeFile } from "node:fs/promises";
import type { ChangeReport, GrantReport, PluginDetail, PluginStatusView, PluginSummary } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { registerPluginConfig } from "./plugin-config.js";
import { registerPluginLint } from "./plugin-lint.js";

interface ForceOptions {
  force?: boolean;
  reason?: string;
}

/** Adds `oz0 plugin …` and returns the `plugin` command, so other subcommands (lint) can join it. */
export function registerPlugin(program: Command, out: Output): Command {
  const plugin = program
    .command("plugin")
    .description("install, update, remove and look at a tenant's plugins");

  plugin
    .command("install")
    .description(
      "install the plugin in a folder, or in an archive from oz0 plugin pack, into the tenant (creating the tenant if it is new)",
    )
    .argument(
      "<dir>",
      "the plugin folder (plugin.yaml, a Claude Code plugin or an Agent Skill; docs/compat.md), or its .tgz archive",
    )
    .option("--force", "go ahead even though other installed plugins lose what they use")
    .option("--reason <text>", "why, recorded with the change; required with --force")
    .action(async (dir: string, options: ForceOptions) => {
      const report = await withRuntime(out, ({ services, caller }) =>
        services.plugins.install(caller, dir, options),
      );
      out.result(report, drawChange);
    });

  plugin
    .command("update")
    .description("replace an installed plugin with the version in a folder or an archive")
    .argument(
      "<dir>",
      "the plugin folder (plugin.yaml, a Claude Code plugin or an Agent Skill; docs/compat.md), or its .tgz archive",
    )
    .option(
      "--force",
      "go ahead even though other installed plugins lose parts they name, jobs that have not ended lose their agent or flow, or agents ask more of their callers",
    )
    .option("--reason <text>", "why, recorded with the change; required with --force")
    .action(async (dir: string, options: ForceOptions) => {
      const report = await withRuntime(out, ({ services, caller }) =>
        services.plugins.update(caller, dir, options),
      );
      out.result(report, drawChange);
    });

  plugin
    .command("remove")
    .description("remove an installed plugin from the tenant")
    .argument("<plugin>", "the plugin's name")
    .option(
      "--force",
      "go ahead even though other installed plugins name its parts, or jobs that have not ended run as its agents or flows",
    )
    .option("--reason <text>", "why, recorded with the change; required with --force")
    .action(async (name: string, options: ForceOptions) => {
      const report = await withRuntime(out, ({ services, caller }) =>
        services.plugins.remove(caller, name, options),
      );
      out.result(report, drawChange);
    });

  plugin
    .command("grant")
    .description(
      "grant an installed plugin what its uses: asks of other plugins (install and update by an admin grant it at once)",
    )
    .argument("<plugin>", "the plugin's name")
    .option("--revoke", "take the grant back: its parts reach no other plugin's until granted again")
    .action(async (name: string, options: { revoke?: boolean }) => {
      const report = await withRuntime(out, ({ services, caller }) =>
        options.revoke === true
          ? services.plugins.revoke(caller, name)
          : services.plugins.grant(caller, name),
      );
      out.result(report, drawGrant);
    });

  plugin
    .command("list")
    .description("list the tenant's installed plugins")
    .action(async () => {
      const plugins = await withRuntime(out, ({ services, caller }) => services.plugins.list(caller));
      out.result(plugins, (list) => drawList(out.options.tenant, list));
    });

  plugin
    .command("inspect")
    .description("show an installed plugin's parts by address, what it uses, and its history")
    .argument("<plugin>", "the plugin's name")
    .action(async (name: string) => {
      const detail = await withRuntime(out, ({ services, caller }) => services.plugins.inspect(caller, name));
      out.result(detail, drawDetail);
    });

  plugin
    .command("status")
    .description(
      "show plugins' live status: what each admin spec's status() says, and each runtime's state, restarts and last error",
    )
    .argument("[plugin]", "one plugin's name; every plugin of the tenant when left out")
    .action(async (name: string | undefined) => {
      const status = await withRuntime(out, ({ services, caller }) => services.plugins.status(caller, name));
      out.result(status, drawStatus);
    });

  plugin
    .command("pack")
    .description("bundle a plugin folder into one archive (.tgz) to install elsewhere")
    .argument("<dir>", "the plugin folder, with its plugin.yaml")
    .requiredOption("-o, --output <file>", "the archive to write")
    .action(async (dir: string, options: { output: string }) => {
      const { packFolder } = await import("@oz0/runtime");
      const packed = await packFolder(dir);
      await writeFile(options.output, packed.archive);
      const { archive, ...rest } = packed;
      out.result(
        { ...rest, archive: options.output, archiveBytes: archive.byteLength },
        (shown) =>
          `packed ${dir} into ${shown.archive}: ${shown.files} files, ${shown.bytes} bytes (${shown.archiveBytes} packed)\n` +
          `  digest ${shown.digest}`,
      );
    });

  registerPluginLint(plugin, out);
  registerPluginConfig(plugin, out);
  return plugin;
}

const VERBS = { install: "installed", update: "updated", remove: "removed" } as const;

function drawChange(report: ChangeReport): string {
  const { action, plugin, tenant } = report;
  const version =
    report.previousVersion === null ? report.version : `${report.previousVersion} → ${report.version}`;
  const place = action === "remove" ? `from tenant ${tenant}` : `in tenant ${tenant}`;
  const lines = [`${VERBS[action]} ${plugin} ${version} ${place}`];
  if (action !== "remove") lines.push(`  from ${report.dir}`);
  if (report.added.length > 0) lines.push(action === "install" ? "parts" : "added", ...indent(report.added));
  if (report.granted !== null && report.granted.length > 0) {
    lines.push("granted (what its uses: asks of other plugins)", ...indent(report.granted));
  }
  if (report.removed.length > 0) lines.push("removed", ...indent(report.removed));
  if (report.forcedReason !== null) {
    lines.push(`forced: ${report.forcedReason}`);
    for (const one of report.overridden) {
      lines.push(`  ${one.plugin} loses ${one.reference} (${one.where}): ${one.problem}`);
    }
    for (const one of report.contractBreaks) {
      lines.push(
        `  agent ${report.plugin}/${one.agent}: ${one.change === "kind" ? `new failure kind ${one.kind}` : `${one.change} turned on for ${one.kind}`}`,
      );
    }
    for (const job of report.strandedJobs) {
      lines.push(`  job ${job.id} (${job.status}) of ${job.address} fails (part_removed) when it next runs`);
    }
  }
  return lines.join("\n");
}

function drawGrant(report: GrantReport): string {
  if (report.action === "grant") {
    const what = report.uses.length === 0 ? "nothing (its uses: asks nothing of other plugins)" : "its uses:";
    return [
      `granted ${report.plugin} ${report.version} ${what} in tenant ${report.tenant}`,
      ...indent(report.uses),
    ].join("\n");
  }
  if (report.version === null)
    return `${report.plugin} had no grant in tenant ${report.tenant}; nothing to revoke`;
  return [
    `revoked the grant of ${report.plugin} ${report.version}'s uses: in tenant ${report.tenant}; its parts reach no other plugin's until oz0 plugin grant ${report.plugin}`,
    ...indent(report.uses),
  ].join("\n");
}

function drawList(tenant: string, plugins: readonly PluginSummary[]): string {
  if (plugins.length === 0)
    return `no plugins installed in tenant ${tenant}; add one with oz0 plugin install <dir>`;
  const rows = plugins.map((plugin) => [
    plugin.name,
    plugin.version,
    countParts(plugin),
    plugin.forcedReason === null ? plugin.dir : `${plugin.dir}  (forced: ${plugin.forcedReason})`,
  ]);
  return table([["PLUGIN", "VERSION", "PARTS", "FOLDER"], ...rows]);
}

function drawStatus(plugins: readonly PluginStatusView[]): string {
  if (plugins.length === 0) return "no plugins installed";
  const blocks = plugins.map((plugin) => {
    const lines = [plugin.plugin];
    for (const admin of plugin.admin) {
      lines.push(
        `  ${admin.name}: ${admin.state}${admin.message === undefined ? "" : ` · ${admin.message}`}`,
      );
      for (const [key, value] of Object.entries(admin.details ?? {})) {
        lines.push(`    ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
      }
    }
    for (const runtime of plugin.runtimes) {
      const since = runtime.since === null ? "" : ` since ${new Date(runtime.since).toISOString()}`;
      const where = runtime.node === null ? "" : ` on node ${runtime.node}`;
      lines.push(
        `  runtime ${runtime.runtime}: ${runtime.state}${where}${since} · ${runtime.restarts} restart(s)` +
          (runtime.lastError === null ? "" : ` · last error: ${runtime.lastError}`),
      );
    }
    if (plugin.admin.length === 0 && plugin.runtimes.length === 0) lines.push("  no status and no runtimes");
    return lines.join("\n");
  });
  return blocks.join("\n\n");
}

function drawDetail(detail: PluginDetail): string {
  const lines = [`${detail.name} ${detail.version}`];
  if (detail.description !== null) lines.push(detail.description);
  lines.push(`folder: ${detail.dir}`);
  lines.push(`bundle: ${detail.digest ?? "none yet (installed before bundles; its next load makes one)"}`);
  if (detail.forcedReason !== null) lines.push(`forced: ${detail.forcedReason}`);
  const section = (title: string, body: string[]) => {
    if (body.length > 0) lines.push("", title, ...body);
  };
  section(
    "agents",
    detail.agents.flatMap((agent) => [
      `  ${agent.address}${agent.description === null ? "" : `  ${agent.description}`}`,
      ...(agent.tools.length > 0 ? [`    tools: ${agent.tools.join(", ")}`] : []),
      ...(agent.delegation.length > 0 ? [`    delegates to: ${agent.delegation.join(", ")}`] : []),
      ...(agent.skills.length > 0 ? [`    skills: ${agent.skills.join(", ")}`] : []),
      ...(agent.tags.length > 0 ? [`    tags: ${agent.tags.join(", ")}`] : []),
    ]),
  );
  section(
    "flows",
    detail.flows.map(
      (flow) => `  ${flow.address}${flow.description === null ? "" : `  ${flow.description}`}`,
    ),
  );
  section(
    "tools (function → name a model sees)",
    detail.tools.flatMap((tool) => [
      `  ${tool.address}${tool.source === "mcp" ? "  (MCP server)" : ""}`,
      ...(tool.listError === undefined ? [] : [`    functions not listed: ${tool.listError}`]),
      ...tool.functions.map((fn) => `    ${fn.address} → ${fn.modelName}`),
    ]),
  );
  section(
    "skills",
    detail.skills.map((skill) => `  ${skill.address}  ${skill.description}`),
  );
  section(
    "routines",
    detail.routines.map(
      (routine) => `  ${routine.name}: ${routine.schedule ?? routine.event} → ${routine.run}`,
    ),
  );
  section(
    "uses",
    detail.uses.map((used) => {
      const wants = used.version === null ? "any version" : used.version;
      const has = used.installed === null ? "not installed" : `${used.installed} installed`;
      const grants = [...used.tools, ...used.agents, ...used.skills];
      return `  ${used.plugin} ${wants} (${has})${grants.length > 0 ? `: ${grants.join(", ")}` : ""}`;
    }),
  );
  // What it reaches of other plugins runs under the tenant's grant; a plugin that uses none has no need of one.
  const grant = detail.grant;
  section(
    "grant",
    detail.uses.length === 0
      ? []
      : [
          grant === null
            ? `  none: its parts reach no other plugin's part until an admin runs oz0 plugin grant ${detail.name}`
            : `  ${grant.version}'s uses: granted by ${grant.by} at ${new Date(grant.at).toISOString()}${grant.uses.length === 0 ? " (it asks nothing)" : ""}`,
          ...(grant === null ? [] : indent(indent(grant.uses))),
          ...(detail.ungranted.length === 0 || grant === null
            ? []
            : [
                `  not granted (refused until oz0 plugin grant ${detail.name}): ${detail.ungranted.join(", ")}`,
              ]),
        ],
  );
  section(
    "history",
    detail.changes.map((change) => {
      const version =
        change.previousVersion === null ? change.version : `${change.previousVersion} → ${change.version}`;
      const forced = change.forcedReason === null ? "" : `  (forced: ${change.forcedReason})`;
      return `  ${new Date(change.at).toISOString()}  ${change.action} ${version}${forced}`;
    }),
  );
  return lines.join("\n");
}

function countParts(plugin: PluginSummary): string {
  const words = [
    [plugin.parts.agent, "agent"],
    [plugin.parts.flow, "flow"],
    [plugin.parts.tool, "tool"],
    [plugin.parts.function, "function"],
    [plugin.parts.skill, "skill"],
  ] as const;
  const shown = words
    .filter(([count]) => count > 0)
    .map(([count, word]) => `${count} ${word}${count === 1 ? "" : "s"}`);
  return shown.length === 0 ? "none" : shown.join(", ");
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

/** Columns padded to their widest cell; the last column is left as it is. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join("  "),
    )
    .join("\n");
}
