// The agent definition of spec/agent-definition.txt: the same schema for an agent inline in
// plugin.yaml, in agents/*.yaml, and in the front matter of agents/*.md.
import * as z from "zod";
import { FAILURE_LIMITS, MAX_TAGS, nameProblem, PLATFORM_FAILURE_KINDS } from "../names/index.js";
import {
  addressField,
  choiceField,
  describe,
  labelsField,
  modelChoiceSchema,
  nameField,
  pluginPath,
  repeats,
  strictObject,
  tooMany,
} from "./fields.js";
import { toolEntryField } from "./tool-ref.js";

/** Limits of agent fields that the spec states and ../names does not hold. */
export const AGENT_LIMITS = {
  /** Entries in `skills` (or `skills.use`). */
  maxSkills: 64,
  /** Keys in `skills.propose.arguments`. */
  maxProposeArguments: 16,
} as const;

/** Arguments of the propose apply call that the platform sets, so an agent may not fix them. */
export const PLATFORM_PROPOSE_ARGUMENTS = ["repository", "base", "patch", "title", "body", "draft"] as const;

/**
 * What `limits:` holds when an agent leaves a value out. A job that reaches one ends with the
 * platform's failure (`max_turns`, `timeout`, `token_limit`).
 */
export const AGENT_LIMIT_DEFAULTS = {
  /** Model calls in one job. */
  max_turns: 50,
  /** Wall-clock seconds from the job's start to its end, waiting for people included. */
  wall_seconds: 3600,
  /** Model tokens in one job, prompt and completion together. */
  max_tokens: 500_000,
  /** Tokens of the start-up context: instructions, then the skill index and tool manuals. */
  startup_tokens: 8_000,
} as const;

/** Built-ins that `tool_loading: lazy` gives an agent; it never lists them itself. */
const LAZY_LOADING_BUILTINS = ["oz.find_tools", "oz.call_tool"];

const RUNTIME_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** Where an agent's loop runs, read from its `runtime`. */
export type AgentRuntime =
  | { readonly kind: "oz0" }
  | { readonly kind: "openai-agents" }
  | { readonly kind: "harness"; readonly name: string }
  | { readonly kind: "remote"; readonly name: string };

/**
 * Reads `runtime`: left out (or `pydantic-ai`, the source platform's name for its default)
 * is oz0's own loop; `openai-agents`; `harness:<name>`; `remote:<name>`. `undefined` when the
 * value is none of these.
 */
export function parseAgentRuntime(runtime: string | undefined): AgentRuntime | undefined {
  if (runtime === undefined || runtime === "pydantic-ai") return { kind: "oz0" };
  if (runtime === "openai-agents") return { kind: "openai-agents" };
  const match = /^(harness|remote):(.*)$/.exec(runtime);
  if (match === null || !RUNTIME_NAME.test(match[2] ?? "")) return undefined;
  return { kind: match[1] as "harness" | "remote", name: match[2] ?? "" };
}

const runtimeField = () =>
  z.string().superRefine((value, ctx) => {
    if (parseAgentRuntime(value) === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `runtime '${value}' is not known: leave it out for oz0's loop, or write pydantic-ai, openai-agents, harness:<name> or remote:<name>`,
        input: value,
      });
    }
  });

/** One kind of failure an agent may end a job with: part of its contract with callers. */
export const failureDeclSchema = z.lazy(() =>
  strictObject({
    kind: nameField("failure kind").superRefine((kind, ctx) => {
      if ((PLATFORM_FAILURE_KINDS as readonly string[]).includes(kind)) {
        ctx.addIssue({
          code: "custom",
          message: `'${kind}' is one of the platform's own failure kinds (${PLATFORM_FAILURE_KINDS.join(", ")}); give the agent's kind another name`,
          input: kind,
        });
      }
    }),
    description: z
      .string()
      .min(1, "a failure needs a description: say when the agent ends a job with it")
      .max(
        FAILURE_LIMITS.maxDescription,
        `a failure's description may be at most ${FAILURE_LIMITS.maxDescription} characters`,
      ),
    retryable: z.boolean().default(false),
    partial: z.boolean().default(false),
    person: z.boolean().default(false),
  }),
);
export type FailureDecl = z.output<typeof failureDeclSchema>;

const failuresField = () =>
  z
    .array(failureDeclSchema)
    .max(FAILURE_LIMITS.maxKinds, { error: tooMany("failures", FAILURE_LIMITS.maxKinds) })
    .superRefine((failures, ctx) => {
      for (const { index, value } of repeats(failures.map((failure) => failure.kind))) {
        ctx.addIssue({
          code: "custom",
          message: `failure kind '${value}' is declared twice; each kind appears once`,
          path: [index, "kind"],
          input: value,
        });
      }
    });

/** Why `ref` is not a skill reference (`<plugin>/<skill>`, `<plugin>/*`, bare `<skill>`). */
export function skillRefProblem(ref: string): string | undefined {
  const parts = ref.split("/");
  const [first = "", second] = parts;
  if (parts.length > 2) {
    return `'${ref}' is not a skill: write <plugin>/<skill>, <plugin>/* or a bare <skill> of this plugin`;
  }
  if (second === undefined) return nameProblem("skill", first);
  return nameProblem("plugin", first) ?? (second === "*" ? undefined : nameProblem("skill", second));
}

const skillRef = () =>
  z.string().superRefine((value, ctx) => {
    const problem = skillRefProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
  });

const skillList = () =>
  z.array(skillRef()).max(AGENT_LIMITS.maxSkills, { error: tooMany("skills", AGENT_LIMITS.maxSkills) });

const proposeArguments = () =>
  z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
    const keys = Object.keys(args);
    if (keys.length > AGENT_LIMITS.maxProposeArguments) {
      ctx.addIssue({
        code: "custom",
        message: `at most ${AGENT_LIMITS.maxProposeArguments} propose arguments are allowed; found ${keys.length}`,
        input: args,
      });
    }
    for (const key of keys) {
      if ((PLATFORM_PROPOSE_ARGUMENTS as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: "custom",
          message: `the platform sets '${key}' of the apply call itself (${PLATFORM_PROPOSE_ARGUMENTS.join(", ")}); remove it`,
          path: [key],
          input: key,
          params: { at: "key" },
        });
      }
    }
  });

/** `skills.propose`: lets the agent propose skill changes that a person reviews as a pull request. */
export const skillProposalSchema = z.lazy(() =>
  strictObject({
    into: nameField("plugin"),
    apply: addressField("function address (<tool>.<function> or <plugin>/<tool>.<function>)"),
    repository: z
      .string()
      .regex(
        /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/,
        "repository must be owner/name, such as acme/support-plugins",
      ),
    // A folder of the repository, held to the rules of a path inside a plugin.
    path: pluginPath("folder").optional(),
    arguments: proposeArguments().optional(),
    review: z.literal("required", { error: "propose.review may only be required" }).optional(),
  }),
);
export type SkillProposal = z.output<typeof skillProposalSchema>;

/**
 * `skills:` is a list of references, or `{ use, propose }`. `skills: {}` sets nothing, so it
 * reads as left out (every skill of the agent's own plugin); `[]` gives none.
 */
export const skillsFieldSchema = z.lazy(() =>
  z
    .union([
      skillList(),
      strictObject({ use: skillList().optional(), propose: skillProposalSchema.optional() }),
    ])
    .transform((skills) =>
      Array.isArray(skills) || skills.use !== undefined || skills.propose !== undefined ? skills : undefined,
    ),
);
export type SkillsField = NonNullable<z.output<typeof skillsFieldSchema>>;

const positiveInteger = (what: string) =>
  z
    .number({ error: (issue) => `${what} must be a whole number above 0, got ${describe(issue.input)}` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be above 0`);

/** `limits:`; every value left out takes its AGENT_LIMIT_DEFAULTS value. */
export const agentLimitsSchema = z.lazy(() =>
  strictObject({
    max_turns: positiveInteger("limits.max_turns").default(AGENT_LIMIT_DEFAULTS.max_turns),
    wall_seconds: positiveInteger("limits.wall_seconds").default(AGENT_LIMIT_DEFAULTS.wall_seconds),
    max_tokens: positiveInteger("limits.max_tokens").default(AGENT_LIMIT_DEFAULTS.max_tokens),
    startup_tokens: positiveInteger("limits.startup_tokens").default(AGENT_LIMIT_DEFAULTS.startup_tokens),
  }),
);
export type AgentLimits = z.output<typeof agentLimitsSchema>;

/** `delegation:`: the agents this one may start as child jobs, and how far that may go. */
export const delegationSchema = z.lazy(() =>
  strictObject({
    allow: z.array(addressField("agent address")),
    max_depth: positiveInteger("delegation.max_depth").optional(),
    max_children: positiveInteger("delegation.max_children").optional(),
  }),
);
export type Delegation = z.output<typeof delegationSchema>;

const AGENT_HINTS = {
  uses: "uses: belongs in plugin.yaml, where the plugin declares the plugins it uses",
  prompt:
    "name the system prompt file with instructions:, or write the agent as Markdown whose body is the prompt",
};

const agentShape = () => ({
  name: nameField("agent"),
  description: z.string().optional(),
  runtime: runtimeField().optional(),
  instructions: pluginPath().optional(),
  tools: z.array(toolEntryField()).optional(),
  input: z
    .literal("text", {
      error: "input may only be text; for structured input name a JSON Schema file with input_schema",
    })
    .optional(),
  output: z
    .literal("text", {
      error: "output may only be text; for structured output name a JSON Schema file with output_schema",
    })
    .optional(),
  input_schema: pluginPath().optional(),
  output_schema: pluginPath().optional(),
  failures: failuresField().optional(),
  harness: z.record(z.string(), z.unknown()).optional(),
  skills: skillsFieldSchema.optional(),
  tool_loading: choiceField(["eager", "lazy"], "tool_loading").default("eager"),
  tags: z
    .array(nameField("tag"))
    .max(MAX_TAGS, { error: tooMany("tags", MAX_TAGS) })
    .optional(),
  labels: labelsField("labels").optional(),
  delegation: delegationSchema.optional(),
  model: modelChoiceSchema.optional(),
  limits: agentLimitsSchema.default(() => ({ ...AGENT_LIMIT_DEFAULTS })),
  // The spec names changes: only as what skills.propose may not sit beside; its own schema
  // comes with the feature, so it is carried as written.
  changes: z.unknown().optional(),
});

/** An agent definition (spec/agent-definition.txt). Unknown keys are refused. */
export const agentDefinitionSchema = z.lazy(() =>
  strictObject(agentShape(), AGENT_HINTS).superRefine((agent, ctx) => {
    const problem = (path: (string | number)[], message: string, at: "key" | "value" = "value") =>
      ctx.addIssue({ code: "custom", message, path, input: agent, params: { at } });
    const runtime = parseAgentRuntime(agent.runtime);
    if (agent.input !== undefined && agent.input_schema !== undefined) {
      problem(["input_schema"], "declare input: text or input_schema, not both");
    }
    if (agent.output !== undefined && agent.output_schema !== undefined) {
      problem(["output_schema"], "declare output: text or output_schema, not both");
    }
    if (agent.harness !== undefined && runtime?.kind !== "harness" && runtime?.kind !== "remote") {
      problem(
        ["harness"],
        "harness: options apply only to an agent with runtime harness:<name> or remote:<name>",
        "key",
      );
    }
    if (
      runtime?.kind === "remote" &&
      agent.harness !== undefined &&
      Object.hasOwn(agent.harness, "api_url")
    ) {
      problem(["harness", "api_url"], "a remote agent has no api_url: only a node's operator sets it", "key");
    }
    const propose =
      agent.skills !== undefined && !Array.isArray(agent.skills) ? agent.skills.propose : undefined;
    if (propose !== undefined && runtime?.kind === "remote") {
      problem(["skills", "propose"], "a remote agent cannot propose skills; remove skills.propose");
    }
    if (propose !== undefined && agent.changes !== undefined) {
      problem(["changes"], "skills.propose cannot sit beside changes:; keep one of them", "key");
    }
    agent.tools?.forEach((tool, index) => {
      if (LAZY_LOADING_BUILTINS.includes(tool)) {
        problem(["tools", index], `${tool} comes with tool_loading: lazy; do not list it under tools`);
      }
    });
  }),
);
export type AgentDefinition = z.output<typeof agentDefinitionSchema>;
export type AgentDefinitionInput = z.input<typeof agentDefinitionSchema>;
