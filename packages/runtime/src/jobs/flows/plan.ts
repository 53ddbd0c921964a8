// A flow as the runner sees it, whichever way its plugin defines it: YAML steps under
// `flows:` in plugin.yaml, or code registered with `host.addFlow`. Both become a `run` over
// the same steps (a function call, a child job of an agent), so both are recorded, checked
// and resumed the same way.
import { type FlowDefinition, Oz0Error } from "@oz0/sdk";
import { inputJsonSchema, type Registration } from "@oz0/sdk/internal";
import type { LoadedPlugin } from "../../plugin-dir/index.js";
import { readSchema } from "../setup.js";
import { resolveReferences } from "./references.js";

/** A flow defined in code, as its plugin registered it. */
export type CodeFlow = Registration<"flow">["spec"];
/** What a code flow's `run` gets. */
export type FlowContext = Parameters<CodeFlow["run"]>[0];

/** The steps a flow takes, each under an ID unique in its job. */
export interface FlowSteps {
  call(id: string, address: string, args: Readonly<Record<string, unknown>>): Promise<unknown>;
  agent(id: string, address: string, input: unknown): Promise<unknown>;
}

export interface FlowPlan {
  readonly source: "yaml" | "code";
  readonly description: string | undefined;
  /** The input's JSON Schema; undefined when the flow takes text. */
  readonly inputSchema: Readonly<Record<string, unknown>> | undefined;
  readonly outputSchema: Readonly<Record<string, unknown>> | undefined;
  /** Where the schemas come from, for messages: a file of the plugin, or the code's spec. */
  readonly inputFrom: string;
  readonly outputFrom: string;
  run(
    steps: FlowSteps,
    input: unknown,
    job: { tenant: string; id: string; signal: AbortSignal },
  ): Promise<unknown>;
}

/** The flow `name` of `plugin`; NOT_FOUND when the plugin (as loaded now) has none of that name. */
export async function flowPlan(plugin: LoadedPlugin, name: string): Promise<FlowPlan> {
  const yaml = plugin.manifest.flows?.find((flow) => flow.name === name);
  if (yaml !== undefined) return yamlPlan(plugin, yaml);
  const code = plugin.code?.registration("flow", name);
  if (code?.enabled) return codePlan(code.spec);
  throw new Oz0Error(
    "NOT_FOUND",
    `${plugin.manifest.name}/${name}: plugin ${plugin.manifest.name} (version ${plugin.manifest.version}) has no flow ${name}.`,
    { data: { kind: "flow", name } },
  );
}

async function yamlPlan(plugin: LoadedPlugin, flow: FlowDefinition): Promise<FlowPlan> {
  const read = (path: string | undefined, field: string) =>
    path === undefined ? undefined : readSchema(plugin, path, field);
  return {
    source: "yaml",
    description: flow.description,
    inputSchema: await read(flow.input_schema, "input_schema"),
    outputSchema: await read(flow.output_schema, "output_schema"),
    inputFrom: `input_schema ${flow.input_schema ?? ""}`.trim(),
    outputFrom: `output_schema ${flow.output_schema ?? ""}`.trim(),
    run: (steps, input) => runYamlSteps(flow, steps, input),
  };
}

/** The steps in order; each step's output is there for the references of the steps after it. */
async function runYamlSteps(flow: FlowDefinition, steps: FlowSteps, input: unknown): Promise<unknown> {
  const outputs = new Map<string, unknown>();
  let last: unknown = null;
  for (const step of flow.steps) {
    const scope = { input, steps: outputs };
    if (step.call !== undefined) {
      const args = resolveReferences(step.args ?? {}, scope, step.id) as Record<string, unknown>;
      last = await steps.call(step.id, step.call, args);
    } else {
      const given = step.input === undefined ? input : resolveReferences(step.input, scope, step.id);
      last = await steps.agent(step.id, step.agent ?? "", given);
    }
    outputs.set(step.id, last);
  }
  return flow.result === undefined
    ? last
    : resolveReferences(flow.result, { input, steps: outputs }, "result");
}

function codePlan(spec: CodeFlow): FlowPlan {
  return {
    source: "code",
    description: spec.description,
    inputSchema: spec.input === undefined ? undefined : inputJsonSchema(spec.input, `flow '${spec.name}'`),
    outputSchema: spec.output,
    inputFrom: "input schema",
    outputFrom: "output schema",
    run: (steps, input, job) => {
      // Steps are numbered in the order the code takes them, the same at every run of it.
      let step = 0;
      const context: FlowContext = {
        input,
        tenant: job.tenant,
        jobId: job.id,
        signal: job.signal,
        call: (address, args) => steps.call(String(++step), address, args ?? {}),
        agent: (address, given) => steps.agent(String(++step), address, given),
      };
      return spec.run(context);
    },
  };
}
