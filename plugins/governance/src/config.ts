// The governance plugin's configuration, set per tenant (the tenant setting
// `plugin.governance.config`, over the defaults here): budget ceilings and rate limits. Every
// ceiling is optional; a check with nothing configured registers no handler at all.
import { z } from "zod";

/** How long a budget's period runs; each starts at the top of the hour, midnight UTC, or the 1st. */
export const PERIODS = ["hour", "day", "month"] as const;
export type Period = (typeof PERIODS)[number];

const amount = z.number().positive();

const ceiling = z.strictObject({
  tokens: amount.optional().describe("Prompt and completion tokens of model calls."),
  usd: amount.optional().describe("What model calls cost, in US dollars."),
});

const periodCeiling = ceiling.extend({
  period: z.enum(PERIODS).optional().describe("The period the ceiling covers."),
});

const price = z.strictObject({
  input: z.number().nonnegative().describe("US dollars per million prompt tokens."),
  output: z.number().nonnegative().describe("US dollars per million completion tokens."),
});

export const budgetSchema = z.strictObject({
  job: ceiling.optional().describe("Ceilings of each job."),
  agent: periodCeiling.optional().describe("Ceilings of each agent over its period (a day by default)."),
  agents: z
    .record(z.string(), periodCeiling)
    .optional()
    .describe("Ceilings of one agent by address (<plugin>/<agent>), in place of `agent`."),
  tenant: periodCeiling
    .optional()
    .describe("Ceilings of the whole tenant over its period (a month by default)."),
  prices: z
    .record(z.string(), price)
    .optional()
    .describe("Prices by provider:model, or by provider for all its models; needed for usd ceilings."),
  output_reserve: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("Completion tokens counted for a call before it is made, on top of its prompt (512)."),
});

export const rateLimitSchema = z.strictObject({
  calls_per_minute: z.number().int().positive().optional().describe("Model calls per minute in the tenant."),
  tool_calls_per_minute: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Function calls per minute in the tenant."),
});

export const configSchema = z.strictObject({
  budget: budgetSchema.default({}),
  rate_limit: rateLimitSchema.default({}),
});

export type BudgetConfig = z.infer<typeof budgetSchema>;
export type RateLimitConfig = z.infer<typeof rateLimitSchema>;
export type GovernanceConfig = z.infer<typeof configSchema>;

/** Completion tokens a budget counts for a call before it is made, when the config does not say. */
export const DEFAULT_OUTPUT_RESERVE = 512;

/** The defaults: no ceiling and no limit, so installing the plugin changes nothing until configured. */
export const DEFAULT_CONFIG: GovernanceConfig = { budget: {}, rate_limit: {} };

/** Each problem of a config, with its dotted path; none when it is valid. */
export function configIssues(config: unknown): { path: string; message: string }[] {
  const parsed = configSchema.safeParse(config);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

/** The config, checked; throws a message with every problem and its path. */
export function readConfig(config: unknown): GovernanceConfig {
  const parsed = configSchema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`,
  );
  throw new Error(
    `the governance config (tenant setting plugin.governance.config) is not valid: ${problems.join("; ")}`,
  );
}
