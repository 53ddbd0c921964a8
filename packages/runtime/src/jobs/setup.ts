// What a run needs before its first step, read afresh at every claim: the agent from its
// installed plugin (checked for a name clash), its tools, skills and model, its schemas, and,
// at the job's first claim only, its checked input and its recorded start-up context.
import { type AgentDefinition, type JsonSchemaObject, Oz0Error } from "@oz0/sdk";
import { AGENT_LIMIT_DEFAULTS, toolEntryCovered } from "@oz0/sdk/internal";
import type { TenantGrant } from "../catalog/index.js";
import { event, type RoutineGrant, SetupFailure } from "../events/index.js";
import { hookInterceptor } from "../hooks/index.js";
import { runtimeModelProblem, runtimeProblem } from "../lint/index.js";
import { DEFAULT_MODEL_ALIAS, type LanguageModel, routeOf, TenantSettings } from "../models/index.js";
import { type LoadedAgent, type LoadedPlugin, pluginToolSpec, readInPlugin } from "../plugin-dir/index.js";
import { type AgentRuntime, agentRuntimes, type HarnessSetting } from "../runtimes/index.js";
import { proposalRecorder } from "../skills/index.js";
import { endCatalogOperation } from "../store/index.js";
import {
  type ArgumentIssue,
  argumentIssues,
  type CallInterceptor,
  disabledToolError,
  FunctionResolver,
  formatIssues,
  type PartSource,
} from "../tools/index.js";
import type { BuiltinContext, DelegateEntry } from "./builtins.js";
import { agentSkills, assembleContext } from "./context.js";
import { harnessSetup } from "./harness-setup.js";
import type { JobRun } from "./job-run.js";
import { checkOwnPart } from "./own-part.js";
import { resolveToolset, type Toolset } from "./toolset.js";

export interface AgentSetup {
  readonly plugin: LoadedPlugin;
  readonly agent: LoadedAgent;
  readonly definition: AgentDefinition;
  readonly resolver: FunctionResolver;
  readonly toolset: Toolset;
  readonly model: LanguageModel;
  /**
   * Another model of the tenant (`provider:model` or an alias), with the agent's request
   * options: the one a pre_llm_call handler chose for a call. Each is resolved once per claim.
   */
  readonly modelFor: (use: string) => Promise<LanguageModel>;
  readonly outputSchema: JsonSchemaObject | undefined;
  /** The agent's limits, lowered by a routine's; `max_cost_usd` only a routine sets. */
  readonly limits: AgentDefinition["limits"] & { readonly max_cost_usd?: number };
  readonly builtins: BuiltinContext;
  /** The dispatch path's interceptors for this run: the engine's, then the job's hooks. */
  readonly interceptors: readonly CallInterceptor[];
  /** The loop that takes the job's steps, as the agent's `runtime:` selects it. */
  readonly runtime: AgentRuntime;
  /**
   * The tenant admin's grant of the plugin's `uses:` as it stood at this claim: what the model
   * is offered and the skills index. Each call, delegation and skill read checks it again.
   */
  readonly tenantGrant: { readonly tenant: string; readonly grant: TenantGrant | undefined };
  /** For an agent on a harness: the harness and what its session gets. */
  readonly harness?: HarnessSetting | undefined;
}

/**
 * Refuses to start a job of agent `part` when it names a runtime this oz0 does not have, and
 * returns the name of the one it runs on; a plugin that does not load now is left to the
 * job's first claim, which says why.
 */
export async function assertRuntimeRuns(
  source: PartSource,
  tenant: string,
  part: { readonly plugin: string; readonly name: string },
): Promise<string | undefined> {
  let definition: AgentDefinition | undefined;
  try {
    const loaded = await source.loadInstalled(tenant, part.plugin);
    definition = loaded.agents.find((entry) => entry.definition.name === part.name)?.definition;
  } catch {
    return undefined;
  }
  if (definition === undefined) return undefined;
  return runtimeOf(`${part.plugin}/${part.name}`, definition).name;
}

/** The runtime agent `definition` runs on, refused (OZ-S023's words) when this oz0 has none of that name. */
function runtimeOf(address: string, definition: AgentDefinition): AgentRuntime {
  const runtime = agentRuntimes.select(definition.runtime);
  const modelProblem = runtime?.modelProblem?.(definition.model);
  if (runtime !== undefined && modelProblem !== undefined) {
    // OZ-S045's words: an agent installed before the check is still not run on a model it cannot take.
    throw runtimeRefusal(
      address,
      `agent '${definition.name}' runs at a provider (runtime ${runtime.name}) and ${modelProblem}`,
    );
  }
  if (runtime !== undefined) return runtime;
  throw runtimeRefusal(
    address,
    runtimeProblem(definition.name, definition.runtime) ?? `runtime '${definition.runtime}' is not known`,
  );
}

/**
 * Refuses a runtime that runs only on some providers' models (OZ-S031's words) the model the
 * tenant's settings lead to now: an alias may have been set, or changed, since install.
 */
async function checkRuntimeModel(
  run: JobRun,
  definition: AgentDefinition,
  runtime: AgentRuntime,
  use: string,
): Promise<void> {
  if (runtime.models === undefined) return;
  const store = run.deps.jobs.store;
  const settings = await new TenantSettings(store.db, store.clockSql).routes(run.row.tenant);
  const route = routeOf(use, (key) => settings.get(key));
  // An alias not set fails as the resolver says.
  if (route === undefined) return;
  const problem = runtimeModelProblem(definition.name, definition.runtime, route);
  if (problem === undefined) return;
  throw new Oz0Error("MODEL_NOT_CONFIGURED", `${run.address}: ${problem}`, {
    data: { alias: route.via ?? route.model, provider: route.provider, runtime: runtime.name },
  });
}

function runtimeRefusal(address: string, problem: string): Oz0Error {
  return new Oz0Error("INVALID_PLUGIN", `${address}: ${problem}`, {
    data: { plugin: address.slice(0, address.indexOf("/")), detail: "runtime not available" },
  });
}

/**
 * Sets the claimed job's agent up. Its look-ups go by the tenant's catalog version as the claim
 * read it (the claim's operation, which ends here): every step after it reads the version again.
 */
export async function setUpAgent(run: JobRun): Promise<AgentSetup> {
  try {
    return await setUp(run);
  } finally {
    endCatalogOperation();
  }
}

async function setUp(run: JobRun): Promise<AgentSetup> {
  const { row, deps } = run;
  // The owner check and the name clash check, as at every entry point: a tenant that came to
  // have two agents of this name since the job started runs neither.
  await checkOwnPart(run, "agent");
  const resolver = new FunctionResolver(deps.source, {
    tenant: row.tenant,
    home: deps.home,
    agent: row.name,
  });
  const plugin = await resolver.plugin(row.plugin);
  const agent = plugin.agents.find((entry) => entry.definition.name === row.name);
  if (agent === undefined) {
    throw new Oz0Error(
      "NOT_FOUND",
      `${run.address}: plugin ${row.plugin} (version ${plugin.manifest.version}) no longer has agent ${row.name}.`,
      { data: { kind: "agent", name: row.name, tenant: row.tenant } },
    );
  }
  const definition = agent.definition;
  // An agent installed before its runtime was refused at install still never runs on another loop.
  const runtime = runtimeOf(run.address, definition);
  const grant = run.history.started.routine;
  const limits = routineLimits(definition.limits ?? { ...AGENT_LIMIT_DEFAULTS }, grant);
  run.setDeadline(row.created_at + limits.wall_seconds * 1000);
  const first = run.history.system === undefined;
  // pre_execution and user_input may rewrite a new job's input; on_pre_restore sees a resumed one.
  const hooks = run.hooks;
  const started = run.history.started;
  const input =
    hooks === undefined
      ? started.input
      : await hooks.start({
          first,
          input: started.input,
          attempt: row.attempts,
          steps: run.history.steps,
          parentJobId: row.parent_id ?? undefined,
          by: started.by,
          chat: row.mode === "chat",
          via: started.via,
        });
  if (first) await checkInput(run, plugin, definition, input);
  const tenantGrant = {
    tenant: row.tenant,
    grant: await deps.source.tenantGrant(row.tenant, row.plugin),
  };
  const {
    skills,
    leftOut: skillsLeftOut,
    ungranted: ungrantedSkills,
  } = await agentSkills(plugin, agent, resolver, tenantGrant);
  const builtins: BuiltinContext = {
    failureKinds: (definition.failures ?? []).map((failure) => failure.kind),
    skills,
    ungrantedSkills,
    delegates: await delegateEntries(run, definition, resolver),
    propose: proposeBuiltin(run, definition),
  };
  // The model comes first: the longest function name its format accepts decides what it is offered.
  const choice = definition.model ?? plugin.manifest.model ?? { use: DEFAULT_MODEL_ALIAS };
  await checkRuntimeModel(run, definition, runtime, choice.use);
  const settings = new TenantSettings(deps.jobs.store.db, deps.jobs.store.clockSql);
  const modelContext = {
    tenant: row.tenant,
    pluginDir: plugin.dir,
    setting: (key: string) => settings.get(row.tenant, key),
  };
  const model = await deps.models(choice, modelContext);
  const others = new Map<string, Promise<LanguageModel>>([[model.id, Promise.resolve(model)]]);
  const modelFor = (use: string): Promise<LanguageModel> => {
    let found = others.get(use);
    if (found === undefined) {
      found = deps.models(
        { use, ...(choice.options === undefined ? {} : { options: choice.options }) },
        modelContext,
      );
      others.set(use, found);
      found.catch(() => others.delete(use));
    }
    return found;
  };
  run.useModel(model);
  const toolset = await resolveToolset({
    plugin: plugin.manifest.name,
    manifest: plugin.manifest,
    tenantGrant,
    tools: routineTools(definition.tools ?? [], row.plugin, grant),
    resolver,
    builtins,
    describeTool: async (owner, tool) => {
      const loaded = owner === plugin.manifest.name ? plugin : await resolver.plugin(owner);
      const declared = loaded.manifest.tools?.find((entry) => entry.id === tool)?.description;
      return declared ?? pluginToolSpec(loaded, tool)?.description ?? "";
    },
    nameLimit: model.nameLimit,
    lazy: definition.tool_loading === "lazy",
    unavailable: async (fn) => {
      if (fn.disabled?.() === true && fn.plugin !== undefined)
        return disabledToolError(fn.plugin, fn.tool).message;
      for (const interceptor of deps.interceptors) {
        const reason = await interceptor.unavailable?.(fn, { tenant: row.tenant, agent: run.address });
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
  });
  await hooks?.toolsCollected(toolset.functions, toolset.offered);
  const hooked = hooks === undefined ? undefined : hookInterceptor(hooks);
  const interceptors =
    hooked === undefined
      ? deps.interceptors.filter((interceptor) => interceptor.afterHooks !== true)
      : [
          ...deps.interceptors.filter((interceptor) => interceptor.afterHooks !== true),
          hooked,
          ...deps.interceptors.filter((interceptor) => interceptor.afterHooks === true),
        ];
  const outputSchema =
    definition.output_schema === undefined
      ? undefined
      : await readSchema(plugin, definition.output_schema, "output_schema");
  if (first) {
    const labels = skills.map((skill) => skill.label);
    if (labels.length > 0) await hooks?.skillsChecked("index", labels);
    const context = await assembleContext({
      tenant: row.tenant,
      job: row.id,
      plugin,
      agent,
      toolset,
      skills,
      skillsLeftOut,
      resolver,
      startupTokens: limits.startup_tokens,
      hooks,
    });
    await run.write([
      ...context.parts.map((part) => event("context_part_contributed", part)),
      ...toolset.leftOut.map((left) => event("function_left_out", left)),
      event("context_assembled", {
        system: context.system,
        tokens: context.tokens,
        functions: toolset.offered.map((fn) => fn.name),
        ...(input === started.input ? {} : { input }),
      }),
    ]);
  } else {
    await hooks?.restored(row.attempts, run.history.steps);
  }
  const accessed = (await hooks?.sessionAccessed(input)) === true;
  const harness = await harnessSetup(run, plugin, definition, resolver, skills, input);
  // The context's write read the governance version after every plugin's set-up code, and the
  // first step goes by it; when code ran after the set-up's last write (a resumed job's set-up,
  // a post_session_access handler, a harness's), the first step reads the version itself.
  if (!first || accessed || harness !== undefined) run.forgetGovernanceVersion();
  return {
    plugin,
    agent,
    definition,
    resolver,
    toolset:
      harness === undefined || harness.functions.length === 0
        ? toolset
        : {
            ...toolset,
            functions: new Map([
              ...toolset.functions,
              ...harness.functions.map((fn) => [fn.modelName, fn] as const),
            ]),
          },
    harness: harness?.setting,
    model,
    modelFor,
    outputSchema,
    limits,
    builtins,
    interceptors,
    runtime,
    tenantGrant,
  };
}

/** A routine's limits lower the agent's, never raise them. */
function routineLimits(
  agent: AgentDefinition["limits"],
  grant: RoutineGrant | undefined,
): AgentSetup["limits"] {
  const own = grant?.limits;
  if (own === undefined) return agent;
  const lower = (mine: number | undefined, theirs: number) =>
    mine === undefined ? theirs : Math.min(mine, theirs);
  return {
    ...agent,
    max_turns: lower(own.max_turns, agent.max_turns),
    max_tokens: lower(own.max_tokens, agent.max_tokens),
    wall_seconds: lower(own.wall_seconds, agent.wall_seconds),
    ...(own.max_cost_usd === undefined ? {} : { max_cost_usd: own.max_cost_usd }),
  };
}

/**
 * A routine's tools: those of its entries the agent has now (an update may have dropped one
 * since the routine was checked), so a routine's job never calls what its agent may not.
 */
function routineTools(agent: readonly string[], plugin: string, grant: RoutineGrant | undefined): string[] {
  if (grant?.tools === undefined) return [...agent];
  return grant.tools.filter((entry) => toolEntryCovered(entry, plugin, agent, plugin));
}

/** The agents `delegation.allow` names, with their descriptions: what the model reads in oz.delegate. */
async function delegateEntries(
  run: JobRun,
  definition: AgentDefinition,
  resolver: FunctionResolver,
): Promise<DelegateEntry[]> {
  const entries: DelegateEntry[] = [];
  for (const name of definition.delegation?.allow ?? []) {
    try {
      const part = await run.deps.source.resolvePart(run.row.tenant, "agent", name, {
        fromPlugin: run.row.plugin,
      });
      const plugin = await resolver.plugin(part.plugin);
      const agent = plugin.agents.find((entry) => entry.definition.name === part.name);
      entries.push({ name, description: agent?.definition.description });
    } catch {
      // An agent that does not resolve now is still offered by name; delegating to it is
      // refused with the reason when the model tries.
      entries.push({ name });
    }
  }
  return entries;
}

/** oz.propose_skill's recorder, for an agent with skills.propose. */
function proposeBuiltin(run: JobRun, definition: AgentDefinition): BuiltinContext["propose"] {
  const skills = definition.skills;
  const settings = skills === undefined || Array.isArray(skills) ? undefined : skills.propose;
  if (settings === undefined) return undefined;
  const { row } = run;
  return {
    into: settings.into,
    record: proposalRecorder(run.deps.jobs.store, {
      tenant: row.tenant,
      job: row.id,
      agent: run.address,
      plugin: row.plugin,
      settings,
    }),
  };
}

/** A job whose input does not match the agent fails with invalid_input before the agent starts. */
async function checkInput(
  run: JobRun,
  plugin: LoadedPlugin,
  definition: AgentDefinition,
  input: unknown,
): Promise<void> {
  const problem = await inputProblem(plugin, definition, run.address, input);
  if (problem !== undefined) throw new SetupFailure("invalid_input", problem.message, "INVALID_INPUT");
}

/**
 * What is wrong with `input` for the agent at `address`, or undefined when nothing is: the one
 * check a job's first run makes, and StartJob makes before the job exists.
 */
export async function inputProblem(
  plugin: LoadedPlugin,
  definition: AgentDefinition,
  address: string,
  input: unknown,
): Promise<{ readonly message: string; readonly issues: readonly ArgumentIssue[] } | undefined> {
  if (definition.input_schema !== undefined) {
    const schema = await readSchema(plugin, definition.input_schema, "input_schema");
    // Text given to an agent with an input schema (`oz0 run a/b '{"id": 7}'`) is read as JSON.
    const issues = argumentIssues(schema, typeof input === "string" ? parseJsonText(input) : input);
    if (issues.length === 0) return undefined;
    return {
      message: `the input does not match ${address}'s input_schema ${definition.input_schema}: ${formatIssues(issues)}`,
      issues,
    };
  }
  if (typeof input === "string") return undefined;
  return {
    message: `${address} takes text (it has no input_schema), and the input is ${Array.isArray(input) ? "a list" : typeof input}`,
    issues: [{ path: "", message: "must be text" }],
  };
}

/** A JSON Schema file of the plugin (an agent's or flow's input_schema or output_schema). */
export async function readSchema(
  plugin: LoadedPlugin,
  path: string,
  field: string,
): Promise<JsonSchemaObject> {
  const text = await readInPlugin(plugin.dir, path, { where: { file: path, field } });
  try {
    return JSON.parse(text) as JsonSchemaObject;
  } catch (error) {
    throw new Oz0Error(
      "INVALID_MANIFEST",
      `${path} (${field} of plugin ${plugin.manifest.name}) is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      { data: { issues: [{ file: path, line: 1, column: 1, path: [field], message: "not JSON" }] } },
    );
  }
}

/** Text given where structured input is expected is read as JSON when it is JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
