// The role each service operation needs, in one table: every method checks its row before it
// does anything else, docs/roles.md prints the same table, and a test holds the two together
// and calls every operation with the role just below its own.
import type { Role } from "../callers/index.js";

interface ActionRule {
  readonly role: Role;
  /** What the caller asks to do, as the FORBIDDEN message says it ("start jobs"). */
  readonly does: string;
}

/** Every service operation, `<area>.<method>`, with the role it needs. */
export const SERVICE_ROLES = {
  "jobs.get": { role: "viewer", does: "read jobs" },
  "jobs.search": { role: "viewer", does: "search jobs" },
  "jobs.events": { role: "viewer", does: "read a job's history" },
  "jobs.eventPage": { role: "viewer", does: "read a job's history" },
  "jobs.card": { role: "viewer", does: "read a job's card" },
  "jobs.answerCard": { role: "viewer", does: "read a job's answer" },
  "jobs.liveWorkers": { role: "viewer", does: "see whether a worker is running" },
  "jobs.start": { role: "runner", does: "start jobs" },
  "jobs.run": { role: "runner", does: "run jobs" },
  "jobs.runOn": { role: "runner", does: "run jobs" },
  "jobs.resume": { role: "runner", does: "resume jobs" },
  "jobs.cancel": { role: "runner", does: "cancel jobs" },
  "jobs.answer": { role: "runner", does: "answer a job's questions" },
  "chat.open": { role: "runner", does: "chat with agents" },
  "chat.say": { role: "runner", does: "chat with agents" },
  "chat.end": { role: "runner", does: "chat with agents" },
  "catalog.entries": { role: "viewer", does: "read the catalog" },
  "catalog.lookup": { role: "viewer", does: "read the catalog" },
  "plugins.list": { role: "viewer", does: "list plugins" },
  "plugins.inspect": { role: "viewer", does: "inspect plugins" },
  "plugins.lint": { role: "viewer", does: "lint a plugin against the tenant" },
  "plugins.install": { role: "admin", does: "install plugins" },
  "plugins.update": { role: "admin", does: "update plugins" },
  "plugins.remove": { role: "admin", does: "remove plugins" },
  "pluginConfig.show": { role: "viewer", does: "read plugin config" },
  "pluginConfig.set": { role: "operator", does: "set plugin config" },
  "pluginConfig.unset": { role: "operator", does: "unset plugin config" },
  "tools.call": { role: "runner", does: "call functions by hand" },
  "policy.list": { role: "viewer", does: "read tool policy" },
  "policy.set": { role: "operator", does: "set tool policy" },
  "policy.remove": { role: "operator", does: "remove tool policy rules" },
  "approvals.list": { role: "viewer", does: "list approvals" },
  "approvals.get": { role: "viewer", does: "read approvals" },
  "approvals.approve": { role: "approver", does: "approve held calls" },
  "approvals.deny": { role: "approver", does: "deny held calls" },
  "killSwitches.list": { role: "viewer", does: "list kill switches" },
  "killSwitches.kill": { role: "operator", does: "set kill switches" },
  "killSwitches.revive": { role: "operator", does: "lift kill switches" },
  "inventory.list": { role: "viewer", does: "read the inventory" },
  "inventory.set": { role: "operator", does: "set inventory entries" },
  "models.aliases": { role: "viewer", does: "read model aliases" },
  "models.setAlias": { role: "operator", does: "set model aliases" },
  "models.removeAlias": { role: "operator", does: "remove model aliases" },
  "models.prices": { role: "viewer", does: "read model prices" },
  "models.setPrice": { role: "operator", does: "set model prices" },
  "models.removePrice": { role: "operator", does: "remove model prices" },
  "models.providers": { role: "viewer", does: "read model providers" },
  "models.setProvider": { role: "operator", does: "set model providers and keys" },
  "models.removeProvider": { role: "operator", does: "remove model providers and keys" },
  "mcp.status": { role: "viewer", does: "read MCP servers' status" },
  "mcp.secrets": { role: "viewer", does: "list MCP secrets' names" },
  "mcp.setSecret": { role: "operator", does: "set MCP secrets" },
  "mcp.removeSecret": { role: "operator", does: "remove MCP secrets" },
  "mcp.serve": { role: "runner", does: "serve functions over MCP" },
  "skills.proposals": { role: "viewer", does: "list skill proposals" },
  "skills.proposal": { role: "viewer", does: "read skill proposals" },
  "skills.approve": { role: "approver", does: "approve skill proposals" },
  "skills.reject": { role: "approver", does: "reject skill proposals" },
} as const satisfies Record<string, ActionRule>;

export type ServiceAction = keyof typeof SERVICE_ROLES;
