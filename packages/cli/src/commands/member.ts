// `oz0 member add USER --role ROLE [--agents LIST]`, `oz0 member list`, `oz0 member remove USER`:
// who is a member of the tenant (--tenant), in which role, and which agents they may see and start.
import type { MemberChange, MemberView, Role } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import { allOf } from "../options.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

/** The roles, each including the one before: listed here so `--help` loads no runtime. */
export const ROLE_NAMES = allOf<Role>()(["viewer", "runner", "approver", "operator", "admin"]);

export const AGENTS_HELP =
  "the agents in scope: comma-separated addresses (<plugin>/<agent>), tag:<tag>, or * (the default)";

export function registerMember(program: Command, out: Output): Command {
  const member = program
    .command("member")
    .description("the tenant's members, their roles and agents (an admin)");

  member
    .command("add")
    .description("make a user a member of the tenant, or change a member's role and agents")
    .argument("<user>", "the user, as oz0 user list shows it")
    .addOption(
      new Option("--role <role>", "what the member may do").choices(ROLE_NAMES).makeOptionMandatory(),
    )
    .option("--agents <list>", AGENTS_HELP)
    .action(async (user: string, options: { role: Role; agents?: string }) => {
      const { parseAgentList } = await import("@oz0/runtime");
      const agents = parseAgentList(options.agents);
      const change = await withRuntime(out, ({ services, caller }) =>
        services.identity.addMember(caller, { user, role: options.role, agents }),
      );
      out.result(change, drawChange);
    });

  member
    .command("list")
    .description("list the tenant's members")
    .action(async () => {
      const tenant = out.options.tenant;
      const members = await withRuntime(out, ({ services, caller }) => services.identity.listMembers(caller));
      out.result(members, (list) => drawMembers(tenant, list));
    });

  member
    .command("remove")
    .description("end a user's membership of the tenant")
    .argument("<user>", "the member, as oz0 member list shows them")
    .action(async (user: string) => {
      const removed = await withRuntime(out, ({ services, caller }) =>
        services.identity.removeMember(caller, user),
      );
      out.result(removed, (view) => `${view.user} is no longer a member of tenant ${view.tenant}`);
    });

  return member;
}

function drawChange(change: MemberChange): string {
  const { member, previous } = change;
  const now = `${member.user} is ${member.role} in tenant ${member.tenant}, agents ${member.agents.join(", ")}`;
  if (previous === null) return now;
  return `${now} (was ${previous.role}, agents ${previous.agents.join(", ")})`;
}

function drawMembers(tenant: string, members: readonly MemberView[]): string {
  if (members.length === 0)
    return `tenant ${tenant} has no members: oz0 member add USER --role ROLE adds one`;
  return table([
    ["USER", "ROLE", "AGENTS", "SINCE"],
    ...members.map((each) => [
      each.user,
      each.role,
      each.agents.join(","),
      new Date(each.createdAt).toISOString(),
    ]),
  ]);
}
