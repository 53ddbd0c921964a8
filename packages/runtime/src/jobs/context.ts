// The start-up context: the agent's instructions, the system-prompt sections of the plugins
// it works with (addSystemPrompt), the manual of each tool it uses, the tools those plugins
// found at run time (addPromptInventory), and its skills index, in that order, within `limits.startup_tokens`. Each part is a ContextPart with its own part_id,
// and is reported as a context_part_contributed event, kept or left out, so a trace says why
// every token is there. The context hooks see and may change the parts and the prompt.
import { randomUUID } from "node:crypto";
import { ContextPart, type PromptInventoryTool, type SystemPromptSpec } from "@oz0/sdk";
import { type TenantGrant, tenantGrantRefusal } from "../catalog/index.js";
import type { JobEventData } from "../events/index.js";
import type { PromptSection, RunHooks } from "../hooks/index.js";
import { estimateTokens } from "../models/index.js";
import type { LoadedAgent, LoadedPlugin } from "../plugin-dir/index.js";
import type { FunctionResolver } from "../tools/index.js";
import type { SkillEntry } from "./builtins.js";
import type { Toolset } from "./toolset.js";

type PartEvent = JobEventData["context_part_contributed"];

export interface StartupContext {
  readonly system: string;
  readonly tokens: number;
  readonly parts: readonly PartEvent[];
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
  /** The job's hooks: collect_context, pre/post_context_assembly, pre/post_prompt_build. */
  readonly hooks?: RunHooks | undefined;
}

/** Why a part was left out: it did not fit, a hook dropped it, or it could not be built. */
const BUDGET_EXCEEDED = "budget_exceeded";
const DROPPED_BY_HOOK = "dropped_by_hook";

/** Assembles the start-up context; the instructions are always kept, the rest while they fit. */
export async function assembleContext(options: ContextOptions): Promise<StartupContext> {
  const { agent, plugin, hooks } = options;
  const address = `${plugin.manifest.name}/${agent.definition.name}`;
  const timestamp = Date.now() / 1000;
  const event = (part: ContextPart, retained: boolean, reason?: string): PartEvent => ({
    agent_id: address,
    timestamp,
    ...(part.toObservabilityDict() as { part_id: string; source: string; token_estimate: number }),
    section_id: part.sectionId ?? part.source,
    mechanism: part.mechanism ?? "unknown",
    retained,
    ...(reason === undefined ? {} : { eviction_reason: reason }),
  });
  const events: PartEvent[] = (options.skillsLeftOut ?? []).map(({ reference, reason }) => ({
    agent_id: address,
    timestamp,
    part_id: randomUUID(),
    source: "skills",
    section_id: reference,
    mechanism: "skill_index",
    cause: reference,
    cause_type: "skill",
    token_estimate: 0,
    retained: false,
    eviction_reason: reason,
  }));
  const collected: ContextPart[] = [];
  if (agent.prompt.trim() !== "") {
    collected.push(
      new ContextPart({
        content: agent.prompt.trim(),
        source: "instructions",
        sectionId: address,
        mechanism: "agent_definition",
        cause: address,
        causeType: "agent",
      }),
    );
  }
  for (const built of await systemPromptParts(options, address)) {
    if (built.error === undefined) collected.push(built.part);
    else events.push(event(built.part, false, built.error));
  }
  for (const tool of options.toolset.tools) {
    collected.push(
      new ContextPart({
        content: toolManual(tool),
        source: "tool_manual",
        sectionId: tool.address,
        mechanism: "tool_manual",
        cause: tool.address,
        causeType: "tool",
      }),
    );
  }
  for (const built of await inventoryParts(options, address)) {
    if (built.error === undefined) collected.push(built.part);
    else events.push(event(built.part, false, built.error));
  }
  if (options.skills.length > 0) {
    collected.push(
      new ContextPart({
        content: skillsIndex(options.skills),
        source: "skills",
        sectionId: "skills/index",
        mechanism: "skill_index",
        cause: address,
        causeType: "agent",
      }),
    );
  }
  const parts = hooks === undefined ? collected : await hooks.contextParts(collected, options.startupTokens);
  const retained: ContextPart[] = [];
  const evicted: ContextPart[] = [];
  let used = 0;
  for (const part of parts) {
    const always = part.source === "instructions";
    if (!always && used + part.tokenEstimate > options.startupTokens) {
      evicted.push(part);
      events.push(event(part, false, BUDGET_EXCEEDED));
      continue;
    }
    used += part.tokenEstimate;
    retained.push(part);
    events.push(event(part, true));
  }
  if (parts !== collected) {
    for (const part of collected) {
      if (parts.includes(part)) continue;
      evicted.push(part);
      events.push(event(part, false, DROPPED_BY_HOOK));
    }
  }
  await hooks?.contextAssembled(retained, evicted);
  const sections: PromptSection[] = retained.map((part) => ({
    partId: part.partId,
    source: part.source,
    ...(part.sectionId === undefined ? {} : { sectionId: part.sectionId }),
    content: part.content,
  }));
  const built = await hooks?.buildPrompt(sections);
  if (built !== undefined) return { system: built, tokens: estimateTokens(built), parts: events };
  return { system: retained.map((part) => part.content).join("\n\n"), tokens: used, parts: events };
}

/** A system-prompt section as a part, or the part and why it could not be built. */
interface BuiltSection {
  readonly part: ContextPart;
  readonly error?: string;
}

/** Sections from the agent's own plugin and the plugins whose functions it uses. */
async function systemPromptParts(options: ContextOptions, agentAddress: string): Promise<BuiltSection[]> {
  const parts: BuiltSection[] = [];
  for (const name of options.toolset.plugins) {
    const plugin =
      name === options.plugin.manifest.name ? options.plugin : await options.resolver.plugin(name);
    for (const registration of plugin.code?.registrations("system_prompt") ?? []) {
      if (!registration.enabled && registration.spec.required !== true) continue;
      const base = {
        source: `system_prompt:${name}`,
        sectionId: `${name}/${registration.name}`,
        mechanism: "system_prompt",
        cause: name,
        causeType: "plugin",
      };
      try {
        const built = await registration.spec.build({
          pluginId: name,
          tenant: options.tenant,
          jobId: options.job,
          agent: agentAddress,
          config: await options.resolver.config(name),
        });
        const content = sectionText(built);
        if (content !== undefined) parts.push({ part: new ContextPart({ ...base, content }) });
      } catch (error) {
        parts.push({
          part: new ContextPart({ ...base, content: "", tokenEstimate: 0 }),
          error: `build_failed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  }
  return parts;
}

/**
 * The tools each plugin the agent works with lists with `addPromptInventory` (an MCP server's,
 * found at run time): one part per plugin, each tool by name, description and input schema.
 */
async function inventoryParts(options: ContextOptions, agentAddress: string): Promise<BuiltSection[]> {
  const parts: BuiltSection[] = [];
  for (const name of options.toolset.plugins) {
    const plugin =
      name === options.plugin.manifest.name ? options.plugin : await options.resolver.plugin(name);
    const registrations = (plugin.code?.registrations("prompt_inventory") ?? []).filter(
      (registration) => registration.enabled,
    );
    if (registrations.length === 0) continue;
    const base = {
      source: `prompt_inventory:${name}`,
      sectionId: `${name}/inventory`,
      mechanism: "prompt_inventory",
      cause: name,
      causeType: "plugin",
    };
    try {
      const tools: PromptInventoryTool[] = [];
      for (const registration of registrations) {
        tools.push(
          ...(await registration.spec.getTools({
            pluginId: name,
            tenant: options.tenant,
            jobId: options.job,
            agent: agentAddress,
          })),
        );
      }
      if (tools.length === 0) continue;
      parts.push({ part: new ContextPart({ ...base, content: inventoryText(name, tools) }) });
    } catch (error) {
      parts.push({
        part: new ContextPart({ ...base, content: "", tokenEstimate: 0 }),
        error: `build_failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return parts;
}

function inventoryText(plugin: string, tools: readonly PromptInventoryTool[]): string {
  const lines = [`## Tools ${plugin} provides`];
  for (const tool of tools) {
    const input = tool.input === undefined ? "" : ` Input: ${JSON.stringify(tool.input)}`;
    lines.push(`- ${tool.name}: ${tool.description}${input}`);
  }
  return lines.join("\n");
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
 * this plugin's `uses:` declares them: `<plugin>/*` gets those it declares, and each other skill
 * of that plugin is left out by its address; with `tenantGrant`, one the tenant admin has not
 * granted is left out too. Returns the skills and what was left out, and why.
 */
export async function agentSkills(
  plugin: LoadedPlugin,
  agent: LoadedAgent,
  resolver: FunctionResolver,
  tenantGrant?: { readonly tenant: string; readonly grant: TenantGrant | undefined },
): Promise<{
  skills: SkillEntry[];
  leftOut: { reference: string; reason: string }[];
  ungranted: { plugin: string; name: string }[];
}> {
  const own = plugin.manifest.name;
  const field = agent.definition.skills;
  const refs = field === undefined ? undefined : Array.isArray(field) ? field : field.use;
  const skills: SkillEntry[] = [];
  const leftOut: { reference: string; reason: string }[] = [];
  const ungranted: { plugin: string; name: string }[] = [];
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
      ...(skill.files === undefined ? {} : { files: skill.files }),
    });
    return true;
  };
  if (refs === undefined) {
    for (const skill of plugin.skills) add(plugin, skill.name);
    return { skills, leftOut, ungranted };
  }
  for (const reference of refs) {
    const slash = reference.indexOf("/");
    const from = slash < 0 ? own : reference.slice(0, slash);
    const name = slash < 0 ? reference : reference.slice(slash + 1);
    let source = plugin;
    const granted = plugin.manifest.uses?.[from]?.skills ?? [];
    // Every skill of this plugin; of another, those its uses: declares.
    const declared = (skill: string) => from === own || granted.includes("*") || granted.includes(skill);
    // What uses: declares of another plugin loads only when a tenant admin granted that too.
    const tenantRefusal = (owner: string, skill: string) =>
      tenantGrant === undefined
        ? undefined
        : tenantGrantRefusal(tenantGrant.tenant, own, tenantGrant.grant, {
            kind: "skill",
            plugin: owner,
            name: skill,
          })?.message;
    if (from !== own) {
      if (name !== "*" && !declared(name)) {
        leftOut.push({
          reference,
          reason: `uses: of ${own} does not declare skill ${name} of ${from} (uses.${from}.skills lists ${granted.join(", ") || "none"})`,
        });
        continue;
      }
      const refused = name === "*" ? undefined : tenantRefusal(from, name);
      if (refused !== undefined) {
        leftOut.push({ reference, reason: refused });
        ungranted.push({ plugin: from, name });
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
      // A pattern gets what the grant covers; each skill it leaves out is reported by address.
      for (const skill of source.skills) {
        const refused = declared(skill.name) ? tenantRefusal(from, skill.name) : undefined;
        if (refused !== undefined) {
          leftOut.push({ reference: `${from}/${skill.name}`, reason: refused });
          ungranted.push({ plugin: from, name: skill.name });
        } else if (declared(skill.name)) add(source, skill.name);
        else {
          leftOut.push({
            reference: `${from}/${skill.name}`,
            reason: `skills: ${reference} names skill ${skill.name} of ${from}, but uses: of ${own} does not declare it (uses.${from}.skills lists ${granted.join(", ") || "none"})`,
          });
        }
      }
    } else if (!add(source, name)) {
      leftOut.push({ reference, reason: `${from} has no skill ${name}` });
    }
  }
  return { skills, leftOut, ungranted };
}
