// `oz0 records list|get|history|hold|holds|release|erase|sweep` and `oz0 records retention
// list|set|clear`: the versioned records plugins' tools keep in the tenant, their retention, the
// legal holds that keep them, and erasure by subject.
import type { Erasure, RecordHold, Retention, TenantRecord } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

interface ListOptions {
  plugin?: string;
  kind?: string;
  subject?: string;
  limit?: string;
}

interface HoldOptions {
  plugin?: string;
  kind?: string;
  key?: string;
  subject?: string;
  reason: string;
}

export function registerRecords(program: Command, out: Output): void {
  const records = program
    .command("records")
    .description("the versioned records plugins' tools keep: retention, legal holds and erasure");

  records
    .command("list")
    .description("list the latest version of each record, newest first")
    .option("--plugin <plugin>", "only this plugin's records")
    .option("--kind <kind>", "only records of this kind")
    .option("--subject <subject>", "only records about this subject")
    .option("--limit <n>", "at most this many (1000 at most)")
    .action(async (options: ListOptions) => {
      const limit = options.limit === undefined ? undefined : await count(options.limit, "--limit");
      const list = await withRuntime(out, ({ services, caller }) =>
        services.records.list(caller, { ...options, limit }),
      );
      out.result(list, drawRecords);
    });

  records
    .command("get")
    .description("show one record: its latest version, or the one --at names")
    .argument("<kind>", "the record's plugin and kind: <plugin>/<kind>")
    .argument("<key>", "the record's key")
    .option("--at <version>", "this version rather than the latest")
    .action(async (kind: string, key: string, options: { at?: string }) => {
      const at = { ...(await pluginKind(kind)), key };
      const version = options.at === undefined ? undefined : await count(options.at, "--at");
      const record = await withRuntime(out, ({ services, caller }) =>
        services.records.get(caller, at, version),
      );
      out.result(record, (shown) => `${heading(shown)}\n${JSON.stringify(shown.value, null, 2)}`);
    });

  records
    .command("history")
    .description("list every version of one record, oldest first")
    .argument("<kind>", "the record's plugin and kind: <plugin>/<kind>")
    .argument("<key>", "the record's key")
    .action(async (kind: string, key: string) => {
      const at = { ...(await pluginKind(kind)), key };
      const versions = await withRuntime(out, ({ services, caller }) => services.records.history(caller, at));
      out.result(versions, drawRecords);
    });

  const retention = records.command("retention").description("how long the tenant keeps each kind of record");
  retention
    .command("list")
    .description("list the kinds with a retention")
    .action(async () => {
      const list = await withRuntime(out, ({ services, caller }) => services.records.retention(caller));
      out.result(list, drawRetention);
    });
  retention
    .command("set")
    .description("keep a kind's records this many days; older versions are removed unless held")
    .argument("<kind>", "the plugin and kind: <plugin>/<kind>")
    .argument("<days>", "whole days, 1 to 36500")
    .action(async (kind: string, days: string) => {
      const { plugin, kind: name } = await pluginKind(kind);
      const list = await withRuntime(out, ({ services, caller }) =>
        services.records.setRetention(caller, plugin, name, Number(days)),
      );
      out.result(list, drawRetention);
    });
  retention
    .command("clear")
    .description("keep a kind's records for ever again")
    .argument("<kind>", "the plugin and kind: <plugin>/<kind>")
    .action(async (kind: string) => {
      const { plugin, kind: name } = await pluginKind(kind);
      const list = await withRuntime(out, ({ services, caller }) =>
        services.records.setRetention(caller, plugin, name, undefined),
      );
      out.result(list, drawRetention);
    });

  records
    .command("hold")
    .description("place a legal hold: what it covers is kept from retention and erasure until released")
    .option("--plugin <plugin>", "hold this plugin's records")
    .option("--kind <kind>", "only of this kind (with --plugin)")
    .option("--key <key>", "only this key (with --kind)")
    .option("--subject <subject>", "hold the records about this subject")
    .requiredOption("--reason <reason>", "why, for whoever reads the hold later")
    .action(async (options: HoldOptions) => {
      const { reason, ...scope } = options;
      const hold = await withRuntime(out, ({ services, caller }) =>
        services.records.hold(caller, scope, reason),
      );
      out.result(
        hold,
        (placed) =>
          `hold ${placed.id} placed on ${holdScope(placed)}; oz0 records release ${placed.id} ends it`,
      );
    });

  records
    .command("holds")
    .description("list the legal holds in force (--all: released ones too)")
    .option("--all", "released holds too")
    .action(async (options: { all?: boolean }) => {
      const list = await withRuntime(out, ({ services, caller }) =>
        services.records.holds(caller, { all: options.all === true }),
      );
      out.result(list, drawHolds);
    });

  records
    .command("release")
    .description("release a legal hold")
    .argument("<id>", "the hold's ID (oz0 records holds)")
    .action(async (id: string) => {
      const hold = await withRuntime(out, ({ services, caller }) => services.records.release(caller, id));
      out.result(hold, (released) => `hold ${released.id} on ${holdScope(released)} released`);
    });

  records
    .command("erase")
    .description("erase every record about a subject, and what the tenant's job histories hold of them")
    .requiredOption("--subject <subject>", "who or what the records are about")
    .action(async (options: { subject: string }) => {
      const erasure = await withRuntime(out, ({ services, caller }) =>
        services.records.erase(caller, options.subject),
      );
      out.result(erasure, drawErasure);
    });

  records
    .command("sweep")
    .description("remove what is past its retention now")
    .action(async () => {
      const swept = await withRuntime(out, ({ services, caller }) => services.records.sweep(caller));
      out.result(
        swept,
        ({ removed }) => `${removed} version${removed === 1 ? "" : "s"} past retention removed`,
      );
    });
}

async function pluginKind(text: string): Promise<{ plugin: string; kind: string }> {
  const [plugin, kind, ...rest] = text.split("/");
  if (plugin !== undefined && plugin !== "" && kind !== undefined && kind !== "" && rest.length === 0) {
    return { plugin, kind };
  }
  throw await invalidInput(
    `${text} is not a record kind's address; give <plugin>/<kind>, such as crm/contact`,
    "kind",
    "not <plugin>/<kind>",
  );
}

async function count(text: string, option: string): Promise<number> {
  const value = Number(text);
  if (Number.isInteger(value) && value >= 1) return value;
  throw await invalidInput(
    `${option} ${text} is not a whole number of at least 1`,
    option.slice(2),
    "not a count",
  );
}

function heading(record: TenantRecord): string {
  const about = record.subject === undefined ? "" : ` · about ${record.subject}`;
  return `${record.plugin}/${record.kind} ${record.key} · version ${record.version} · ${new Date(record.createdAt).toISOString()}${about}`;
}

function drawRecords(list: readonly TenantRecord[]): string {
  if (list.length === 0) return "no records";
  return table([
    ["KIND", "KEY", "VERSION", "SUBJECT", "PUT", "VALUE"],
    ...list.map((record) => [
      `${record.plugin}/${record.kind}`,
      record.key,
      String(record.version),
      record.subject ?? "-",
      new Date(record.createdAt).toISOString(),
      short(JSON.stringify(record.value)),
    ]),
  ]);
}

function drawRetention(list: readonly Retention[]): string {
  if (list.length === 0) return "no retention set: every record is kept until erased";
  return table([
    ["KIND", "DAYS", "SET BY"],
    ...list.map((one) => [`${one.plugin}/${one.kind}`, String(one.days), one.setBy]),
  ]);
}

function holdScope(hold: RecordHold): string {
  const part = [hold.plugin, hold.kind, hold.key].filter((value) => value !== undefined).join("/");
  const subject = hold.subject === undefined ? "" : `the records about ${hold.subject}`;
  if (part === "") return subject;
  return subject === "" ? `${part}` : `${part}, ${subject}`;
}

function drawHolds(list: readonly RecordHold[]): string {
  if (list.length === 0) return "no legal holds";
  return table([
    ["ID", "COVERS", "REASON", "PLACED BY", "RELEASED"],
    ...list.map((hold) => [
      hold.id,
      holdScope(hold),
      hold.reason,
      hold.placedBy,
      hold.releasedAt === undefined
        ? "-"
        : `by ${hold.releasedBy} at ${new Date(hold.releasedAt).toISOString()}`,
    ]),
  ]);
}

function drawErasure(erasure: Erasure): string {
  return (
    `erased ${erasure.versions} version${erasure.versions === 1 ? "" : "s"} of ${erasure.records} record${erasure.records === 1 ? "" : "s"} about ${erasure.subject}; ` +
    `${erasure.events} history event${erasure.events === 1 ? "" : "s"} in ${erasure.jobs} job${erasure.jobs === 1 ? "" : "s"} now say [erased] in their place`
  );
}

function short(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}
