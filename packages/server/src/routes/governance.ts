// Tenant governance over HTTP: approvals (list, get, approve, deny), tool policy (list, set,
// remove), kill switches (list, kill, revive) and the inventory (list, set). Each route parses,
// calls one service method with the caller, and shapes the answer.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Runtime } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam, TenantParams } from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

/** A record as the runtime returns it; its fields are those `oz0 … --json` prints. */
const Record_ = (name: string, description: string) =>
  z.object({}).catchall(z.unknown()).openapi(name, { description });

const Approval = Record_("Approval", "A held call: id, job, callId, tool, status, decidedBy, reason, …");
const Decision = Record_("DecisionReport", "The decision recorded, and what it did to the job.");
const PolicyRule = Record_("PolicyRule", "A tool policy rule: pattern and action.");
const PolicyChange = Record_("PolicyChange", "The rule set, and the one it replaced if any.");
const KillSwitch = Record_("KillSwitch", "A kill switch: kind, address, who set it and when.");
const KillReport = Record_("KillReport", "The switch set, and the jobs it stopped.");
const InventoryEntry = Record_("InventoryEntry", "What an agent or tool is for, and who answers for it.");

const ApprovalParams = z.object({
  tenant: TenantParam,
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "id", in: "path" } }),
});
const ApprovalsQuery = z.object({
  status: z
    .enum(["pending", "approved", "denied", "withdrawn", "all"])
    .optional()
    .openapi({ description: "Default pending: the calls waiting for a person." }),
  job: z.string().min(1).max(200).optional(),
});
const DecisionBody = z
  .object({ reason: z.string().max(2000).optional() })
  .strict()
  .openapi("DecisionBody");
const PolicyBody = z
  .object({ action: z.enum(["allow", "ask", "deny"]), pattern: z.string().min(1).max(400) })
  .strict()
  .openapi("PolicyBody");
const PatternQuery = z.object({ pattern: z.string().min(1).max(400) });
const Action = z.enum(["allow", "ask", "deny"]);
const CallsQuery = PatternQuery.extend({
  action: Action.optional().openapi({ description: "The action of the rule to preview; default ask." }),
});
const Decided = z
  .object({ action: Action, rule: z.string().openapi({ description: "The deciding rule's pattern." }) })
  .nullable();
const PatternCalls = z
  .object({
    pattern: z.string().openapi({ description: "The pattern as a rule would store it." }),
    action: Action,
    looked: z.object({
      jobs: z.number().int().openapi({ description: "How many of the caller's newest jobs were read." }),
      calls: z.number().int().openapi({ description: "How many of their newest calls were read." }),
    }),
    calls: z.array(
      z.object({
        job: z.string(),
        callId: z.string().openapi({ description: "The call's ID in its job's history." }),
        agent: z.string(),
        function: z.string().openapi({ description: "The called function's address." }),
        args: z.string().openapi({ description: "Its arguments as JSON, cut short." }),
        at: z.number().int(),
        held: z.boolean().openapi({ description: "Held for a person's approval: asked for, not run yet." }),
        now: Decided.openapi({
          description: "The rule that decides such a call now; null: the agent's grant.",
        }),
        withRule: Decided.openapi({
          description: "The rule that would decide it with the pattern's rule set.",
        }),
      }),
    ),
  })
  .openapi("PatternCalls", {
    description: "The recorded calls a pattern covers, newest first, with what a rule on it would decide.",
  });
const Kind = z.enum(["agent", "tool"]);
const SwitchBody = z
  .object({ kind: Kind, address: z.string().min(1).max(400) })
  .strict()
  .openapi("KillSwitchBody");
const SwitchQuery = z.object({ kind: Kind, address: z.string().min(1).max(400) });
const InventoryBody = z
  .object({
    kind: Kind,
    address: z.string().min(1).max(400),
    purpose: z.string().min(1).max(2000),
    owner: z.string().min(1).max(200).optional(),
  })
  .strict()
  .openapi("InventoryBody");

const body = <S extends z.ZodType>(schema: S) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const routes = {
  listApprovals: createRoute({
    operationId: "listApprovals",
    method: "get",
    path: "/v1/t/{tenant}/approvals",
    summary: "The tenant's approvals (pending by default)",
    tags: ["approvals"],
    security,
    middleware: [permit("approvals.list")] as const,
    request: { params: TenantParams, query: ApprovalsQuery },
    responses: {
      200: json(z.object({ approvals: z.array(Approval) }), "The approvals the caller may see."),
      ...errors,
    },
  }),
  getApproval: createRoute({
    operationId: "getApproval",
    method: "get",
    path: "/v1/t/{tenant}/approvals/{id}",
    summary: "One approval",
    tags: ["approvals"],
    security,
    middleware: [permit("approvals.get")] as const,
    request: { params: ApprovalParams },
    responses: { 200: json(Approval, "The approval."), ...errors },
  }),
  approve: createRoute({
    operationId: "approve",
    method: "post",
    path: "/v1/t/{tenant}/approvals/{id}/approve",
    summary: "Approve a held call",
    tags: ["approvals"],
    security,
    middleware: [permit("approvals.approve")] as const,
    request: { params: ApprovalParams, ...body(DecisionBody) },
    responses: { 200: json(Decision, "The decision."), ...errors },
  }),
  deny: createRoute({
    operationId: "deny",
    method: "post",
    path: "/v1/t/{tenant}/approvals/{id}/deny",
    summary: "Deny a held call, with a reason",
    tags: ["approvals"],
    security,
    middleware: [permit("approvals.deny")] as const,
    request: { params: ApprovalParams, ...body(DecisionBody) },
    responses: { 200: json(Decision, "The decision."), ...errors },
  }),
  listPolicy: createRoute({
    operationId: "listPolicy",
    method: "get",
    path: "/v1/t/{tenant}/policy",
    summary: "The tenant's tool policy rules",
    tags: ["policy"],
    security,
    middleware: [permit("policy.list")] as const,
    request: { params: TenantParams },
    responses: { 200: json(z.object({ rules: z.array(PolicyRule) }), "The rules."), ...errors },
  }),
  setPolicy: createRoute({
    operationId: "setPolicy",
    method: "put",
    path: "/v1/t/{tenant}/policy",
    summary: "Set the action of a tool pattern",
    tags: ["policy"],
    security,
    middleware: [permit("policy.set")] as const,
    request: { params: TenantParams, ...body(PolicyBody) },
    responses: { 200: json(PolicyChange, "The rule set."), ...errors },
  }),
  policyCalls: createRoute({
    operationId: "policyCalls",
    method: "get",
    path: "/v1/t/{tenant}/policy/calls",
    summary: "Which recorded calls a pattern covers, and what a rule on it would decide",
    description:
      "Looks through the tool calls of the caller's newest jobs (200 jobs, their newest 2,000 calls) and answers the newest 50 the pattern covers, each with the rule that decides it now and the one that would with `action` set on the pattern. The pattern is checked as setting it is; nothing is stored.",
    tags: ["policy"],
    security,
    middleware: [permit("policy.calls")] as const,
    request: { params: TenantParams, query: CallsQuery },
    responses: { 200: json(PatternCalls, "The calls the pattern covers."), ...errors },
  }),
  removePolicy: createRoute({
    operationId: "removePolicy",
    method: "delete",
    path: "/v1/t/{tenant}/policy",
    summary: "Remove the rule of a tool pattern",
    tags: ["policy"],
    security,
    middleware: [permit("policy.remove")] as const,
    request: { params: TenantParams, query: PatternQuery },
    responses: { 200: json(PolicyRule, "The rule removed."), ...errors },
  }),
  listSwitches: createRoute({
    operationId: "listKillSwitches",
    method: "get",
    path: "/v1/t/{tenant}/kill-switches",
    summary: "The kill switches set",
    tags: ["kill switches"],
    security,
    middleware: [permit("killSwitches.list")] as const,
    request: { params: TenantParams },
    responses: { 200: json(z.object({ switches: z.array(KillSwitch) }), "The switches."), ...errors },
  }),
  kill: createRoute({
    operationId: "kill",
    method: "post",
    path: "/v1/t/{tenant}/kill-switches",
    summary: "Stop an agent or tool: its running jobs end and no new call starts",
    tags: ["kill switches"],
    security,
    middleware: [permit("killSwitches.kill")] as const,
    request: { params: TenantParams, ...body(SwitchBody) },
    responses: { 200: json(KillReport, "The switch set."), ...errors },
  }),
  revive: createRoute({
    operationId: "revive",
    method: "delete",
    path: "/v1/t/{tenant}/kill-switches",
    summary: "Lift a kill switch",
    tags: ["kill switches"],
    security,
    middleware: [permit("killSwitches.revive")] as const,
    request: { params: TenantParams, query: SwitchQuery },
    responses: { 200: json(KillSwitch, "The switch lifted."), ...errors },
  }),
  listInventory: createRoute({
    operationId: "listInventory",
    method: "get",
    path: "/v1/t/{tenant}/inventory",
    summary: "What the tenant's agents and tools are for",
    tags: ["inventory"],
    security,
    middleware: [permit("inventory.list")] as const,
    request: { params: TenantParams },
    responses: { 200: json(z.object({ entries: z.array(InventoryEntry) }), "The entries."), ...errors },
  }),
  setInventory: createRoute({
    operationId: "setInventory",
    method: "put",
    path: "/v1/t/{tenant}/inventory",
    summary: "Say what an agent or tool is for",
    tags: ["inventory"],
    security,
    middleware: [permit("inventory.set")] as const,
    request: { params: TenantParams, ...body(InventoryBody) },
    responses: { 200: json(InventoryEntry, "The entry."), ...errors },
  }),
};

type Shaped = Record<string, unknown>;
const shaped = (value: unknown) => value as Shaped;

export function registerGovernanceRoutes(app: OpenAPIHono<ServerEnv>, runtime: Runtime): void {
  const { approvals, policy, killSwitches, inventory } = runtime.services;
  app.openapi(routes.listApprovals, async (c) => {
    const query = c.req.valid("query");
    const list = await approvals.list(c.get("caller"), {
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.job === undefined ? {} : { job: query.job }),
    });
    return c.json({ approvals: list.map(shaped) }, 200);
  });
  app.openapi(routes.getApproval, async (c) =>
    c.json(shaped(await approvals.get(c.get("caller"), c.req.valid("param").id)), 200),
  );
  app.openapi(routes.approve, async (c) =>
    c.json(
      shaped(await approvals.approve(c.get("caller"), c.req.valid("param").id, c.req.valid("json").reason)),
      200,
    ),
  );
  app.openapi(routes.deny, async (c) =>
    c.json(
      shaped(await approvals.deny(c.get("caller"), c.req.valid("param").id, c.req.valid("json").reason)),
      200,
    ),
  );
  app.openapi(routes.listPolicy, async (c) =>
    c.json({ rules: (await policy.list(c.get("caller"))).map(shaped) }, 200),
  );
  app.openapi(routes.setPolicy, async (c) => {
    const { action, pattern } = c.req.valid("json");
    return c.json(shaped(await policy.set(c.get("caller"), action, pattern)), 200);
  });
  app.openapi(routes.policyCalls, async (c) => {
    const { pattern, action } = c.req.valid("query");
    const preview = await policy.calls(c.get("caller"), action ?? "ask", pattern);
    return c.json({ ...preview, calls: [...preview.calls] }, 200);
  });
  app.openapi(routes.removePolicy, async (c) =>
    c.json(shaped(await policy.remove(c.get("caller"), c.req.valid("query").pattern)), 200),
  );
  app.openapi(routes.listSwitches, async (c) =>
    c.json({ switches: (await killSwitches.list(c.get("caller"))).map(shaped) }, 200),
  );
  app.openapi(routes.kill, async (c) => {
    const { kind, address } = c.req.valid("json");
    return c.json(shaped(await killSwitches.kill(c.get("caller"), kind, address)), 200);
  });
  app.openapi(routes.revive, async (c) => {
    const { kind, address } = c.req.valid("query");
    return c.json(shaped(await killSwitches.revive(c.get("caller"), kind, address)), 200);
  });
  app.openapi(routes.listInventory, async (c) =>
    c.json({ entries: (await inventory.list(c.get("caller"))).map(shaped) }, 200),
  );
  app.openapi(routes.setInventory, async (c) => {
    const { kind, address, purpose, owner } = c.req.valid("json");
    return c.json(shaped(await inventory.set(c.get("caller"), kind, address, { purpose, owner })), 200);
  });
}
