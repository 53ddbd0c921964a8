// `oz0 catalog`: every agent, flow, tool, function and skill of the tenant, by address.
import type { CatalogEntry, Inventoried } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

const TITLES: Record<CatalogEntry["kind"], string> = {
  agent: "agents",
  flow: "flows",
  tool: "tools",
  function: "functions (address → name a model sees)",
  skill: "skills",
};

export function registerCatalog(program: Command, out: Output): Command {
  return program
    .command("catalog")
    .description(
      "list every agent, flow, tool, function and skill of the tenant by address, or look one up by name",
    )
    .argument("[name]", "one part to look up, by address (<plugin>/<name>) or bare name")
    .addOption(
      new Option(
        "--kind <kind>",
        "what the name is; by default a function when it has a '.', else any other kind",
      ).choices(["agent", "flow", "tool", "function", "skill"]),
    )
    .option("--tag <tag>", "only the agents with this tag")
    .action(async (name: string | undefined, options: { tag?: string; kind?: CatalogEntry["kind"] }) => {
      const tenant = out.options.tenant;
      if (name !== undefined) {
        const entry = await withRuntime(out, ({ services, caller }) =>
          services.catalog.lookup(caller, name, { kind: options.kind }),
        );
        out.result(entry, drawEntry);
        return;
      }
      const entries = await withRuntime(out, ({ services, caller }) =>
        services.catalog.entries(caller, { tag: options.tag }),
      );
      out.result(entries, (list) => drawCatalog(tenant, list, options.tag));
    });
}

function inventoryText(entry: Inventoried): string {
  if (entry.inventory === undefined) return "";
  const { purpose, owner } = entry.inventory;
  return `purpose: ${purpose}${owner === null ? "" : ` (owner ${owner})`}`;
}

function drawEntry(entry: CatalogEntry & Inventoried & { bare: boolean }): string {
  const lines = [`${entry.address} (${entry.kind})`];
  if (entry.description !== null && entry.description !== "") lines.push(`  ${entry.description}`);
  if (entry.inventory !== undefined) lines.push(`  ${inventoryText(entry)}`);
  if (entry.modelName !== null) lines.push(`  a model sees it as ${entry.modelName}`);
  if (entry.tags.length > 0) lines.push(`  tags: ${entry.tags.join(", ")}`);
  if (entry.bare) lines.push(`  named without its plugin; its address is ${entry.address}`);
  return lines.join("\n");
}

function drawCatalog(
  tenant: string,
  entries: readonly (CatalogEntry & Inventoried)[],
  tag: string | undefined,
): string {
  if (entries.length === 0) {
    return tag === undefined
      ? `tenant ${tenant} has no parts yet; add a plugin with oz0 plugin install <dir>`
      : `no agent in tenant ${tenant} has the tag ${tag}`;
  }
  const lines: string[] = [];
  for (const kind of Object.keys(TITLES) as CatalogEntry["kind"][]) {
    const ofKind = entries.filter((entry) => entry.kind === kind);
    if (ofKind.length === 0) continue;
    if (lines.length > 0) lines.push("");
    lines.push(TITLES[kind]);
    const rows = ofKind.map((entry) => [
      `  ${entry.modelName === null ? entry.address : `${entry.address} → ${entry.modelName}`}`,
      [
        entry.clash ? "CLASH: another plugin defines this name, so neither runs." : "",
        entry.description ?? "",
        entry.listError === undefined ? "" : `(functions not listed: ${entry.listError})`,
        entry.tags.length > 0 ? `[${entry.tags.join(", ")}]` : "",
        entry.inventory === undefined ? "" : `· ${inventoryText(entry)}`,
      ]
        .filter((text) => text !== "")
        .join(" "),
    ]);
    lines.push(table(rows));
  }
  return lines.join("\n");
}
