// Who asks: every service operation takes a Caller, so a surface cannot forget the tenant or
// act with more than the caller's role. The embedded CLI's caller is the local admin; the
// server builds one from a key or a session.
import { userInfo } from "node:os";
import { Oz0Error } from "@oz0/sdk";

/** The roles, each including the one before it. */
export const ROLES = ["viewer", "runner", "approver", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a role lets a caller do, for help texts and error messages. */
export const ROLE_ALLOWS: Readonly<Record<Role, string>> = {
  viewer: "read jobs, the catalog, policy and inventory",
  runner: "start jobs, chat and answer a job's questions",
  approver: "approve or deny held calls",
  operator: "set policy, kill switches, inventory, plugin config and models",
  admin: "install plugins, grant parts, and manage members and keys",
};

export interface Caller {
  /** The tenant every operation acts in: never "any tenant". */
  readonly tenant: string;
  /** Who, as histories and the audit log record it: `cli:alice`, `key:<id>`, `user:bob`. */
  readonly actor: string;
  readonly role: Role;
  /**
   * The agents this caller may see and start: addresses, `tag:<tag>`, or `*` for all. An
   * agent outside them is answered exactly as one that does not exist.
   */
  readonly agents: readonly string[];
}

/** Every agent: the scope of a caller not limited to some. */
export const ALL_AGENTS: readonly string[] = Object.freeze(["*"]);

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether `caller`'s role includes `role`. */
export function hasRole(caller: Caller, role: Role): boolean {
  return ROLES.indexOf(caller.role) >= ROLES.indexOf(role);
}

/** Refuses, with FORBIDDEN, a caller whose role does not include `role`; `action` says what was asked. */
export function requireRole(caller: Caller, role: Role, action: string): void {
  if (hasRole(caller, role)) return;
  throw new Oz0Error(
    "FORBIDDEN",
    `${caller.actor} may not ${action} in tenant ${caller.tenant}: that needs the ${role} role (${ROLE_ALLOWS[role]}), and ${caller.actor} is a ${caller.role}.`,
    { data: { tenant: caller.tenant, actor: caller.actor, role: caller.role, needs: role } },
  );
}

/** Who the person at this machine's terminal is, as histories record it. */
export function localActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

/** The embedded CLI's caller: the person at the terminal, admin of `tenant`, every agent in scope. */
export function localAdmin(tenant: string, actor: string = localActor()): Caller {
  return Object.freeze({ tenant, actor, role: "admin" as const, agents: ALL_AGENTS });
}
