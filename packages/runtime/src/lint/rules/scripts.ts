// OZ-S025: a test-model script plays against the agent that runs it, so a call of a function
// the agent is not offered, or an oz.fail kind it does not declare, would fail (or end as
// undeclared) the job the script was written to show. The script's own shape is checked where
// it is read (../read.ts), by the test provider's parser.
import { BUILTIN_TOOL_ID, modelVisibleName } from "@oz0/sdk";
import { isToolRef, parseToolRef } from "@oz0/sdk/internal";
import { finding, type LintFinding, type YamlPath } from "../finding.js";
import {
  type AgentSource,
  agentLabel,
  asList,
  asMap,
  asString,
  type PluginFiles,
  pluginName,
  type ScriptSource,
} from "../source.js";
import type { LintRule } from "./rule.js";

const FAIL = modelVisibleName(BUILTIN_TOOL_ID, "fail");

export const checkScripts: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const path = scriptOf(files, agent);
    const script = path === undefined ? undefined : files.scripts.get(path);
    if (script !== undefined) found.push(...checkScript(files, agent, script));
  }
  return found;
};

/** The script the agent runs on: its own model's, else the plugin's when it sets no model. */
function scriptOf(files: PluginFiles, agent: AgentSource): string | undefined {
  const own = asMap(agent.agent.model);
  if (own !== undefined) return asString(own.script);
  return asString(asMap(files.manifest?.raw.model)?.script);
}

function checkScript(files: PluginFiles, agent: AgentSource, source: ScriptSource): LintFinding[] {
  const implicit: string[] = [];
  const offered = offeredFunctions(files, agent, implicit);
  const kinds = (asList(agent.agent.failures) ?? []).flatMap((item) => {
    const kind = asString(asMap(item)?.kind);
    return kind === undefined ? [] : [kind];
  });
  const found: LintFinding[] = [];
  const at = (path: YamlPath) => {
    const { line, column } = source.doc.locate(path);
    return { file: source.file, line, column };
  };
  source.script.turns.forEach((turn, index) => {
    if (!("call" in turn)) return;
    const name = turn.call.function;
    const turnPath: YamlPath = ["turns", index, "call"];
    // A tool granted whole (`fs.*`, offered as `fs__*`) offers whatever its server lists.
    const whole = offered?.some((fn) => fn.endsWith("__*") && name.startsWith(fn.slice(0, -1))) === true;
    if (offered !== undefined && !whole && !offered.includes(name) && !implicit.includes(name)) {
      const list = offered.length === 0 ? "it is offered none" : `it is offered ${offered.join(", ")}`;
      found.push(
        finding(
          "OZ-S025",
          at([...turnPath, "function"]),
          `turn ${index + 1} calls ${name}, which ${agentLabel(agent)} is not offered (${list}); add the function to its tools:, or call one it has (as the model sees it, <tool>__<function>)`,
        ),
      );
      return;
    }
    if (name !== FAIL) return;
    const kind = turn.call.args.kind;
    if (typeof kind === "string" && kinds.includes(kind)) return;
    const declared = kinds.length === 0 ? "it declares none" : `it declares ${kinds.join(", ")}`;
    found.push(
      finding(
        "OZ-S025",
        at(typeof kind === "string" ? [...turnPath, "args", "kind"] : [...turnPath, "function"]),
        `turn ${index + 1} ends the job with oz.fail kind ${typeof kind === "string" ? `'${kind}'` : "(none given)"}, which ${agentLabel(agent)} does not declare (${declared}); declare it under failures:, or fail with a kind it declares`,
      ),
    );
  });
  return found;
}

/**
 * The model-visible names of the functions the agent is offered, from its `tools:` and the
 * built-ins it gets without listing them (`implicit` gets those lint cannot be sure of);
 * `undefined` when one entry names a function lint cannot know (another plugin's `kind: Tool`
 * manifest).
 */
function offeredFunctions(files: PluginFiles, agent: AgentSource, implicit: string[]): string[] | undefined {
  const names: string[] = [];
  const self = pluginName(files);
  // An entry is a name, or `{ ref: <plugin>:<path> }` naming a kind: Tool manifest.
  const entries = (asList(agent.agent.tools) ?? []).flatMap((item) => {
    const value = typeof item === "string" ? item : asString(asMap(item)?.ref);
    return value === undefined ? [] : [value];
  });
  for (const value of entries) {
    if (isToolRef(value)) {
      const ref = parseToolRef(value);
      const tool = files.toolManifests.find((manifest) => manifest.file === ref?.path);
      const id = asString(tool?.raw.name);
      const fn = asString(asMap(tool?.raw.spec)?.function);
      if (ref?.plugin !== self || id === undefined || fn === undefined) return undefined;
      names.push(modelVisibleName(id, fn));
      continue;
    }
    const bare = value.slice(value.indexOf("/") + 1);
    const dot = bare.indexOf(".");
    if (dot > 0) names.push(modelVisibleName(bare.slice(0, dot), bare.slice(dot + 1)));
  }
  const skills = agent.agent.skills;
  // oz.skill comes with skills, which lint does not count here: a call of it is taken at its word.
  if (!(Array.isArray(skills) && skills.length === 0))
    implicit.push(modelVisibleName(BUILTIN_TOOL_ID, "skill"));
  if (asMap(asMap(skills)?.propose) !== undefined) {
    names.push(modelVisibleName(BUILTIN_TOOL_ID, "propose_skill"));
  }
  if (agent.agent.tool_loading === "lazy") {
    names.push(
      modelVisibleName(BUILTIN_TOOL_ID, "find_tools"),
      modelVisibleName(BUILTIN_TOOL_ID, "call_tool"),
    );
  }
  return [...new Set(names)];
}
