// The start-up context: the agent's instructions, the system-prompt sections of the plugins
// it works with (addSystemPrompt), the manual of each tool it uses, and its skills index, in
// that order, within `limits.startup_tokens`. Each part is reported as a
// context_part_contributed event, kept or left out, so a trace says why every token is there.
import { randomUUID } from "node:crypto";
import type { SystemPromptSpec } from "@oz0/sdk";
import { estimateTokens } from "../models/index.js";
import type { LoadedAgent, LoadedPlugin } from "../plugin-dir/index.js";
import type { FunctionResolver } from "../tools/index.js";
import type { SkillEntry } from "./builtins.js";
import type { JobEventData } from "./events.js";
import type { Toolset } from "./toolset.js";

type PartEvent = JobEventData["context_part_contributed"];

export interface StartupContext {
  readonly system: string;
  readonly tokens: number;
  readonly parts: readonly PartEvent[];
}

interface Part {
  readonly source: string;
  readonly section_id: string;
  readonly mechanism: string;
  readonly content: string;
  /** Why the part could not be built, when it could not. */
  readonly error?: string;
}

export interface ContextOptions {
  readonly tenant: string;
  readonly job: string;
  readonly plugin: LoadedPlugin;
  readonly agent: LoadedAgent;
  readonly toolset: Toolset;
  readonly skills: readonly SkillEntry[];
  /** Skill references the agent lists that it does not get, and why. */
  readonly skillsLeftOut?: readonly { readonly reference: string; readonly reason: string }[];
  readonly resolver: FunctionResolver;
  readonly startupTokens: number;
}

/** Assembles the start-up context; the instructions are always kept, the rest while they fit. */
export async function assembleContext(options: ContextOptions): Promise<StartupContext> {
  const { agent, plugin } = options;
  const address = `${plugin.manifest.name}/${agent.definition.name}`;
  const parts: Part[] = [];
  if (agent.prompt.trim() !== "") {
    parts.push({
      source: "instructions",
      section_id: address,
      mechanism: "agent_definition",
      content: agent.prompt.trim(),
    });
  }
  parts.push(...(await systemPromptParts(options, address)));
  for (const tool of options.toolset.tools) {
    parts.push({
      source: "tool_manual",
      section_id: tool.address,
      mechanism: "tool_manual",
      content: toolManual(tool),
    });
  }
  if (options.skills.length > 0) {
    parts.push({
      source: "skills",
      section_id: "skills/index",
      mechanism: "skill_index",
      content: skillsIndex(options.skills),
    });
  }
  const kept: string[] = [];
  const events: PartEvent[] = (options.skillsLeftOut ?? []).map(({ reference, reason }) => ({
    part_id: randomUUID(),
    source: "skills",
    section_id: reference,
    mechanism: "skill_index",
    token_estimate: 0,
    retained: false,
    eviction_reason: reason,
  }));
  let used = 0;
  for (const part of parts) {
    const tokens = estimateTokens(part.content);
    const base = {
      part_id: randomUUID(),
      source: part.source,
      section_id: part.section_id,
      mechanism: part.mechanism,
      token_estimate: tokens,
    };
    if (part.error !== undefined) {
      events.push({ ...base, retained: false, eviction_reason: part.error });
      continue;
    }
    const always = part.source === "instructions";
    if (!always && used + tokens > options.startupTokens) {
      events.push({ ...base, retained: false, eviction_reason: "budget_exceeded" });
      continue;
    }
    used += tokens;
    kept.push(part.content);
    events.push({ ...base, retained: true });
  }
  return { system: kept.join("\n\n"), tokens: used, parts: events };
}

/** Sections from the agent's own plugin and the plugins whose functions it uses. */
async function systemPromptParts(options: ContextOptions, agentAddress: string): Promise<Part[]> {
  const parts: Part[] = [];
  for (const name of options.toolset.plugins) {
    const plugin =
      name === options.plugin.manifest.name ? options.plugin : await options.resolver.plugin(name);
    for (const registration of plugin.code?.registrations("system_prompt") ?? []) {
      if (!registration.enabled && registration.spec.required !== true) continue;
      const base = {
        source: `system_prompt:${name}`,
        section_id: `${name}/${registration.name}`,
        mechanism: "system_prompt",
      };
      try {
        const built = await registration.spec.build({
          pluginId: name,
          tenant: options.tenant,
          jobId: options.job,
          agent: agentAddress,
          config: {},
        });
        const content = sectionText(built);
        if (content !== undefined) parts.push({ ...base, content });
      } catch (error) {
        parts.push({
          ...base,
          content: "",
          error: `build_failed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  }
  return parts;
}

function sectionText(section: Awaited<ReturnType<SystemPromptSpec["build"]>>): string | undefined {
  if (section === undefined) return undefined;
  if (typeof section === "string") return section.trim() === "" ? undefined : section.trim();
  const content = section.content.trim();
  if (content === "") return undefined;
  return section.title === undefined ? content : `## ${section.title}\n${content}`;
}

function toolManual(tool: Toolset["tools"][number]): string {
  const lines = [`## Tool ${tool.address}`, tool.description];
  for (const fn of tool.functions) lines.push(`- ${fn.modelName}: ${fn.description}`);
  return lines.join("\n");
}

function skillsIndex(skills: readonly SkillEntry[]): string {
  const lines = ["## Skills", "Read a skill's body with oz__skill when its description fits the task."];
  for (const skill of skills) lines.push(`- ${skill.label}: ${skill.description}`);
  return lines.join("\n");
}

/**
 * The skills an agent gets: left out, every skill of its own plugin; `[]`, none; else each
 * `<skill>`, `<plugin>/<skill>` or `<plugin>/*` listed. Another plugin's skills come only when
 * this plugin's `uses:` declares them. Returns the skills and the references left out, and why.
 */
export async function agentSkills(
  plugin: LoadedPlugin,
  agent: LoadedAgent,
  resolver: FunctionResolver,
): Promise<{ skills: SkillEntry[]; leftOut: { reference: string; reason: string }[] }> {
  const own = plugin.manifest.name;
  const field = agent.definition.skills;
  const refs = field === undefined ? undefined : Array.isArray(field) ? field : field.use;
  const skills: SkillEntry[] = [];
  const leftOut: { reference: string; reason: string }[] = [];
  const add = (from: LoadedPlugin, name: string) => {
    const skill = from.skills.find((entry) => entry.name === name);
    if (skill === undefined) return false;
    const pluginName = from.manifest.name;
    if (skills.some((entry) => entry.plugin === pluginName && entry.name === name)) return true;
    skills.push({
      plugin: pluginName,
      name,
      label: pluginName === own ? name : `${pluginName}/${name}`,
      description: skill.description,
      body: skill.body,
    });
    return true;
  };
  if (refs === undefined) {
    for (const skill of plugin.skills) add(plugin, skill.name);
    return { skills, leftOut };
  }
  for (const reference of refs) {
    const slash = reference.indexOf("/");
    const from = slash < 0 ? own : reference.slice(0, slash);
    const name = slash < 0 ? reference : reference.slice(slash + 1);
    let source = plugin;
    if (from !== own) {
      const granted = plugin.manifest.uses?.[from]?.skills ?? [];
      if (!granted.includes("*") && !granted.includes(name)) {
        leftOut.push({ reference, reason: `uses: of ${own} does not declare skills of ${from}` });
        continue;
      }
      try {
        source = await resolver.plugin(from);
      } catch (error) {
        leftOut.push({ reference, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
    }
    if (name === "*") {
      for (const skill of source.skills) add(source, skill.name);
    } else if (!add(source, name)) {
      leftOut.push({ reference, reason: `${from} has no skill ${name}` });
    }
  }
  return { skills, leftOut };
}
