// Skill proposals: the skills agents proposed with oz.propose_skill, read by a viewer and
// decided by an approver. Approving runs the agent's apply function on the server, which opens
// the pull request; a proposal of an agent outside the caller's scope answers as a missing one.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { TenantParam } from "../schemas.js";
import { body, errors, json, permit, security, segment } from "./shared.js";

const STATUS = z.enum(["pending", "approved", "rejected"]);

const ProposalSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    job: z.string(),
    agent: z.string().openapi({ description: "The proposing agent, by address." }),
    into: z.string().openapi({ description: "The plugin whose skills it changes." }),
    skill: z.string(),
    description: z.string(),
    body: z.string(),
    title: z.string(),
    why: z.string().nullable(),
    status: STATUS,
    decidedBy: z.string().nullable(),
    reason: z.string().nullable(),
    result: z.unknown().openapi({ description: "What the apply function returned, once approved." }),
    apply: z.string(),
    repository: z.string(),
    createdAt: z.number(),
    decidedAt: z.number().nullable(),
  })
  .openapi("SkillProposal");

const ShownProposalSchema = ProposalSchema.extend({
  path: z.string().openapi({ description: "The SKILL.md the patch changes." }),
  patch: z.string().openapi({ description: "The unified patch approving it would send." }),
}).openapi("ShownSkillProposal");

const ApprovedSchema = z
  .object({
    proposal: ProposalSchema,
    address: z.string().openapi({ description: "The apply function that opened the pull request." }),
    result: z.unknown(),
  })
  .openapi("ApprovedSkillProposal");

const ProposalParams = z.object({
  tenant: TenantParam,
  id: z.string().min(1).max(128).openapi(segment("id", "sp-…")),
});

const ApproveBody = z
  .object({
    base: z.string().min(1).max(256).optional().openapi({ description: "Default main." }),
    draft: z.boolean().optional(),
  })
  .strict()
  .openapi("ApproveSkillProposal");

const RejectBody = z
  .object({ reason: z.string().min(1).max(4096).optional() })
  .strict()
  .openapi("RejectSkillProposal");

const tags = ["skills"];
const base = "/v1/t/{tenant}/skill-proposals";

const routes = {
  list: createRoute({
    operationId: "listSkillProposals",
    method: "get",
    path: base,
    summary: "The tenant's skill proposals, newest first",
    tags,
    security,
    middleware: [permit("skills.proposals")] as const,
    request: { params: z.object({ tenant: TenantParam }), query: z.object({ status: STATUS.optional() }) },
    responses: {
      200: json(z.object({ proposals: z.array(ProposalSchema) }), "The proposals."),
      ...errors,
    },
  }),
  get: createRoute({
    operationId: "getSkillProposal",
    method: "get",
    path: `${base}/{id}`,
    summary: "One proposal, with the patch approving it would send",
    tags,
    security,
    middleware: [permit("skills.proposal")] as const,
    request: { params: ProposalParams },
    responses: { 200: json(ShownProposalSchema, "The proposal."), ...errors },
  }),
  approve: createRoute({
    operationId: "approveSkillProposal",
    method: "post",
    path: `${base}/{id}/approve`,
    summary: "Approve a proposal: its agent's apply function opens the pull request",
    tags,
    security,
    middleware: [permit("skills.approve")] as const,
    request: { params: ProposalParams, ...body(ApproveBody) },
    responses: {
      200: json(ApprovedSchema, "The proposal, and what the apply function returned."),
      ...errors,
    },
  }),
  reject: createRoute({
    operationId: "rejectSkillProposal",
    method: "post",
    path: `${base}/{id}/reject`,
    summary: "Reject a proposal; nothing is sent anywhere",
    tags,
    security,
    middleware: [permit("skills.reject")] as const,
    request: { params: ProposalParams, ...body(RejectBody) },
    responses: { 200: json(ProposalSchema, "The proposal, rejected."), ...errors },
  }),
};

export function registerSkillRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { skills } = services;
  app.openapi(routes.list, async (c) => {
    const { status } = c.req.valid("query");
    const proposals = await skills.proposals(c.get("caller"), { status });
    return c.json({ proposals } as never, 200);
  });
  app.openapi(routes.get, async (c) =>
    c.json((await skills.proposal(c.get("caller"), c.req.valid("param").id)) as never, 200),
  );
  app.openapi(routes.approve, async (c) => {
    const sent = c.req.valid("json");
    const approved = await skills.approve(c.get("caller"), c.req.valid("param").id, {
      base: sent.base ?? "main",
      draft: sent.draft === true,
    });
    return c.json(approved as never, 200);
  });
  app.openapi(routes.reject, async (c) =>
    c.json(
      (await skills.reject(c.get("caller"), c.req.valid("param").id, c.req.valid("json").reason)) as never,
      200,
    ),
  );
}
