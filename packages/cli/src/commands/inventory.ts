// `oz0 inventory set agent|tool <address> --purpose TEXT [--owner NAME]` and `oz0 inventory
// list`: what each agent and tool is for and who answers for it; `oz0 catalog` shows it too.
import type { InventoryEntry } from "@oz0/runtime";
import { Argument, type Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

export function registerInventory(program: Command, out: Output): Command {
  const inventory = program
    .command("inventory")
    .description("what each agent and tool of the tenant is for, and who answers for it");

  inventory
    .command("set")
    .description("say what an agent or a whole tool is for (its address is owner-checked)")
    .addArgument(new Argument("<kind>", "agent or tool").choices(["agent", "tool"]))
    .argument("<address>", "<plugin>/<agent> or <plugin>/<tool>")
    .requiredOption("--purpose <text>", "what it is for")
    .option("--owner <name>", "who answers for it (an empty name clears it)")
    .action(async (kind: "agent" | "tool", address: string, options: { purpose: string; owner?: string }) => {
      const entry = await withRuntime(out, ({ services, caller }) =>
        services.inventory.set(caller, kind, address, {
          purpose: options.purpose,
          owner: options.owner,
        }),
      );
      out.result(
        entry,
        (one) =>
          `${one.kind} ${one.address}: ${one.purpose}${one.owner === null ? "" : ` (owner ${one.owner})`}`,
      );
    });

  inventory
    .command("list")
    .description("list the tenant's inventory entries")
    .action(async () => {
      const list = await withRuntime(out, ({ services, caller }) => services.inventory.list(caller));
      out.result(list, (entries) => drawList(out.options.tenant, entries));
    });

  return inventory;
}

function drawList(tenant: string, entries: readonly InventoryEntry[]): string {
  if (entries.length === 0) {
    return `tenant ${tenant} has no inventory entries; add one with oz0 inventory set agent|tool <address> --purpose TEXT`;
  }
  return table([
    ["KIND", "ADDRESS", "OWNER", "PURPOSE"],
    ...entries.map((entry) => [entry.kind, entry.address, entry.owner ?? "", entry.purpose]),
  ]);
}
