// `oz0 kill agent|tool <address>`, `oz0 kill list` and `oz0 revive agent|tool <address>`:
// tenant-wide off switches. A killed agent starts no job and its running jobs end at their next
// step; a killed tool's calls are refused. Addresses are owner-checked.
import type { KillSwitchView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

const KINDS = {
  agent: { argument: "the agent, by address: <plugin>/<agent>" },
  tool: { argument: "the whole tool, by address: <plugin>/<tool>" },
} as const;

export function registerKill(program: Command, out: Output): void {
  const kill = program
    .command("kill")
    .description("stop an agent or a tool in the tenant, running jobs included, until revived");
  const revive = program.command("revive").description("let a killed agent or tool run again");

  for (const [kind, { argument }] of Object.entries(KINDS) as [keyof typeof KINDS, { argument: string }][]) {
    kill
      .command(kind)
      .description(
        kind === "agent"
          ? "stop an agent: it starts no job, and its running jobs end at their next step (killed)"
          : "stop a tool: every call of its functions is refused, in running jobs too",
      )
      .argument("<address>", argument)
      .action(async (address: string) => {
        const report = await withRuntime(out, ({ services, caller }) =>
          services.killSwitches.kill(caller, kind, address),
        );
        out.result(report, ({ switch: on, changed }) =>
          changed
            ? `${on.kind} ${on.address} killed; oz0 revive ${on.kind} ${on.address} lets it run again`
            : `${on.kind} ${on.address} was already killed by ${on.by ?? "someone"}`,
        );
      });
    revive
      .command(kind)
      .description(`let a killed ${kind} run again`)
      .argument("<address>", argument)
      .action(async (address: string) => {
        const off = await withRuntime(out, ({ services, caller }) =>
          services.killSwitches.revive(caller, kind, address),
        );
        out.result(off, (view) => `${view.kind} ${view.address} revived`);
      });
  }

  kill
    .command("list")
    .description("list the agents and tools the tenant's kill switches stop")
    .action(async () => {
      const list = await withRuntime(out, ({ services, caller }) => services.killSwitches.list(caller));
      out.result(list, (switches) => drawList(out.options.tenant, switches));
    });
}

function drawList(tenant: string, switches: readonly KillSwitchView[]): string {
  if (switches.length === 0) return `no kill switch is on in tenant ${tenant}`;
  return table([
    ["KIND", "ADDRESS", "BY", "SINCE"],
    ...switches.map((one) => [one.kind, one.address, one.by ?? "", new Date(one.since).toISOString()]),
  ]);
}
