// `oz0 audit list [--since WHEN] [--actor A] [--action A]`: who changed what in the tenant, and
// when, newest first.
import type { AuditEntry } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";
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
      const { parseDuration } = await import("@oz0/runtime");
      const since = options.since === undefined ? undefined : await readSince(options.since, parseDuration);
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

/** A time (ISO 8601) or a while back from now (`12h`), as epoch milliseconds. */
async function readSince(
  text: string,
  parseDuration: (text: string, said: string) => number,
): Promise<number> {
  if (/^\d+[mhdw]$/.test(text.trim())) return Date.now() - parseDuration(text, "--since");
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) {
    throw await invalidInput(
      `--since ${text}: it takes a time such as 2026-12-01 or 2026-12-01T09:00:00Z, or a while back such as 90m, 12h or 7d`,
      "since",
      "a time or a duration",
    );
  }
  return at;
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
