// `oz0 audit list [--since WHEN] [--actor A] [--action A]`: who changed what in the tenant, and
// when, newest first.
import type { AuditEntry } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";
import { readTime } from "../times.js";
import { table } from "./plugin.js";

interface ListOptions {
  since?: string;
  actor?: string;
  action?: string;
  limit: number;
}

export function registerAudit(program: Command, out: Output): Command {
  const audit = program.command("audit").description("the tenant's audit log (an admin)");

  audit
    .command("list")
    .description("list who changed what, and when, newest first")
    .option(
      "--since <when>",
      "entries since a time (2026-12-01T09:00:00Z) or for a past while (90m, 12h, 7d)",
    )
    .option("--actor <actor>", "entries by one actor (cli:alice, user:bob, key:<id>)")
    .option("--action <action>", "one action (key.create), or every action on a thing (key)")
    .option(
      "--limit <n>",
      "at most this many",
      numberOption({ whole: true, min: 1, max: 10_000, what: "how many entries to list", example: "100" }),
      100,
    )
    .action(async (options: ListOptions) => {
      const since = options.since === undefined ? undefined : await readTime(options.since, "--since");
      const entries = await withRuntime(out, ({ services, caller }) =>
        services.audit.list(caller, {
          since,
          actor: options.actor,
          action: options.action,
          limit: options.limit,
        }),
      );
      out.result(entries, (list) => drawEntries(out.options.tenant, list));
    });

  return audit;
}

function drawEntries(tenant: string, entries: readonly AuditEntry[]): string {
  if (entries.length === 0) return `tenant ${tenant}'s audit log has no entries that match`;
  return table([
    ["AT", "ACTOR", "ACTION", "TARGET", "DETAIL"],
    ...entries.map((entry) => [
      new Date(entry.at).toISOString(),
      entry.actor,
      entry.action,
      entry.target,
      Object.keys(entry.detail).length === 0 ? "" : JSON.stringify(entry.detail),
    ]),
  ]);
}
