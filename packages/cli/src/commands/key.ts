// `oz0 key create --name N --role ROLE [--agents LIST] [--expires DURATION]`, `oz0 key list`,
// `oz0 key revoke ID`: the tenant's API keys. A key is printed once, when it is made; oz0 keeps
// only its hash, so a lost key is revoked and replaced, never shown again.
import type { ApiKeyView, Role } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { AGENTS_HELP, ROLE_NAMES } from "./member.js";
import { table } from "./plugin.js";

interface CreateOptions {
  name: string;
  role: Role;
  agents?: string;
  expires?: string;
}

export function registerKey(program: Command, out: Output): Command {
  const key = program.command("key").description("the tenant's API keys (an admin)");

  key
    .command("create")
    .description("make an API key; it is printed this once")
    .requiredOption("--name <name>", "what the key is for: lowercase letters, digits and single dashes")
    .addOption(new Option("--role <role>", "what the key may do").choices(ROLE_NAMES).makeOptionMandatory())
    .option("--agents <list>", AGENTS_HELP)
    .option("--expires <duration>", "how long the key works: 90m, 12h, 30d, 8w (default: until revoked)")
    .action(async (options: CreateOptions) => {
      const { parseAgentList, parseDuration } = await import("@oz0/runtime");
      const agents = parseAgentList(options.agents);
      const expiresInMs =
        options.expires === undefined ? undefined : parseDuration(options.expires, "--expires");
      const made = await withRuntime(out, ({ services, caller }) =>
        services.identity.createKey(caller, {
          name: options.name,
          role: options.role,
          agents,
          expiresInMs,
        }),
      );
      out.result({ id: made.id, key: made.key }, (data) => data.key);
      if (!out.json) {
        out.stderr(
          `key ${made.id} (${made.view.name}, ${made.view.role} in tenant ${made.view.tenant}): this is the only time it is shown; keep it now\n`,
        );
      }
    });

  key
    .command("list")
    .description("list the tenant's keys (never their secrets)")
    .action(async () => {
      const tenant = out.options.tenant;
      const keys = await withRuntime(out, ({ services, caller }) => services.identity.listKeys(caller));
      out.result(keys, (list) => drawKeys(tenant, list));
    });

  key
    .command("revoke")
    .description("revoke a key: its next request is refused")
    .argument("<id>", "the key's id, as oz0 key list shows it")
    .action(async (id: string) => {
      const revoked = await withRuntime(out, ({ services, caller }) =>
        services.identity.revokeKey(caller, id),
      );
      out.result(revoked, (view) => `revoked key ${view.id} (${view.name})`);
    });

  return key;
}

function drawKeys(tenant: string, keys: readonly ApiKeyView[]): string {
  if (keys.length === 0)
    return `tenant ${tenant} has no API keys: oz0 key create --name N --role ROLE makes one`;
  return table([
    ["ID", "NAME", "ROLE", "AGENTS", "STATUS", "EXPIRES"],
    ...keys.map((each) => [
      each.id,
      each.name,
      each.role,
      each.agents.join(","),
      each.status,
      each.expiresAt === null ? "never" : new Date(each.expiresAt).toISOString(),
    ]),
  ]);
}
