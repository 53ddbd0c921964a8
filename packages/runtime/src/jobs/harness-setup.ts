// What a run on a harness (`runtime: harness:<name>`) needs from the core: the harness a plugin
// registered (the agent's own plugin, or one its plugin's `uses:` names), the agent's
// `harness:` options checked against what this oz0 honours, and, for an ACP harness, its tool
// kinds as functions the gate decides: a permission request the harness makes is a call of
// `<plugin>/<harness>.<kind>`, refused by a deny rule or a kill switch, held for a person by an
// ask rule or the agent's `requires_approval`, and recorded like any call.
import type { AgentDefinition, HarnessSpec, Registered } from "@oz0/sdk";
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { SetupFailure } from "../events/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import {
  ACP_TOOL_KINDS,
  askProblem,
  type HarnessSetting,
  harnessOptionProblems,
  harnessWorkspace,
} from "../runtimes/index.js";
import type { CallableFunction, FunctionResolver } from "../tools/index.js";
import type { SkillEntry } from "./builtins.js";
import type { JobRun } from "./job-run.js";

export interface HarnessSetup {
  readonly setting: HarnessSetting;
  /** The harness's tool kinds as functions, by model-visible name (ACP only). */
  readonly functions: readonly CallableFunction[];
}

/** The harness setup of an agent on a harness, or undefined for an agent on another runtime. */
export async function harnessSetup(
  run: JobRun,
  plugin: LoadedPlugin,
  definition: AgentDefinition,
  resolver: FunctionResolver,
  skills: readonly SkillEntry[],
  input: unknown,
): Promise<HarnessSetup | undefined> {
  const runtime = parseAgentRuntime(definition.runtime);
  if (runtime?.kind !== "harness") return undefined;
  // A harness takes one prompt per session, and each run starts it over from the job's input: a
  // chat's later messages would never reach it.
  if (run.row.mode === "chat") {
    throw refusal(
      `${run.address} runs on harness '${runtime.name}', and this oz0 runs a harness agent as a job (oz0 run), not as a chat`,
    );
  }
  const spec = await findHarness(plugin, runtime.name, resolver);
  const options = (definition.harness ?? {}) as Readonly<Record<string, unknown>>;
  const routine = run.history.started.routine !== undefined;
  const [problem] = harnessOptionProblems(spec.protocol, spec.name, options);
  if (problem !== undefined) throw refusal(`${run.address}'s harness: options: ${problem.message}`);
  const asks = spec.protocol === "acp" ? askProblem(spec, options) : undefined;
  if (routine && asks !== undefined) {
    throw refusal(
      `${run.address} cannot run a routine's fire: ${asks}, so not every call of its harness reaches a rule or a person`,
    );
  }
  const setting: HarnessSetting = {
    spec,
    options,
    workspace: harnessWorkspace(run.deps.home, run.row.tenant, run.row.plugin, run.row.name),
    skills: skills.map((skill) => ({ label: skill.label, body: skill.body, files: skill.files })),
    instructions: run.history.system ?? "",
    input: typeof input === "string" ? input : JSON.stringify(input),
    routine,
  };
  return { setting, functions: spec.protocol === "acp" ? kindFunctions(spec, options) : [] };
}

/** The harness named `name`: registered by the agent's own plugin, else by a plugin its `uses:` names. */
async function findHarness(
  plugin: LoadedPlugin,
  name: string,
  resolver: FunctionResolver,
): Promise<Registered<HarnessSpec>> {
  const own = plugin.code?.registration("harness", name);
  if (own !== undefined) return own.spec;
  const used = Object.keys(plugin.manifest.uses ?? {});
  for (const other of used) {
    let loaded: LoadedPlugin;
    try {
      loaded = await resolver.plugin(other);
    } catch {
      continue;
    }
    const found = loaded.code?.registration("harness", name);
    if (found !== undefined) return found.spec;
  }
  throw new SetupFailure(
    "harness_unavailable",
    `no plugin provides harness '${name}': plugin ${plugin.manifest.name} does not register it${used.length === 0 ? "" : `, nor does any plugin its uses: names (${used.join(", ")})`}; install the plugin that registers it (host.addHarness) and name it under uses:`,
    "NOT_FOUND",
  );
}

/** The harness's tool kinds as functions of `<plugin>/<harness>`: what its permission requests are decided as. */
function kindFunctions(
  spec: Registered<HarnessSpec>,
  options: Readonly<Record<string, unknown>>,
): CallableFunction[] {
  const approval = (options.requires_approval as readonly string[] | undefined) ?? [];
  return ACP_TOOL_KINDS.map((kind) => ({
    address: `${spec.pluginId}/${spec.name}.${kind}`,
    plugin: spec.pluginId,
    tool: spec.name,
    function: kind,
    modelName: `${spec.name}__${kind}`,
    description: `A ${kind} tool call of harness ${spec.name}, which asked for permission first.`,
    inputSchema: { type: "object" },
    ...(approval.includes(kind) ? { requiresApproval: `requires_approval: ${kind}` } : {}),
    // Permission given is all the call does here; the harness then runs its own tool.
    run: async () => ({ allowed: true }),
  }));
}

function refusal(message: string): SetupFailure {
  return new SetupFailure("invalid_harness", message, "INVALID_PLUGIN");
}
