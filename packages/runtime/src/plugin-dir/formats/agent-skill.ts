// A standalone Agent Skill (the open SKILL.md format, agentskills.io): a folder holding SKILL.md
// and its bundled files. It installs as a plugin holding that one skill, named by the skill's
// front matter `name`, at the version its `metadata.version` gives (a semantic version), else 1.0.0.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { parsePluginManifest } from "@oz0/sdk";
import { stringifyYaml } from "@oz0/sdk/internal";
import type { LoadedPlugin } from "../load.js";
import { Refusals, readForeignSkill } from "./common.js";

export const AGENT_SKILL_FORMAT = "standalone Agent Skill";
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Whether `root` is a standalone Agent Skill: a SKILL.md at its top. */
export async function isAgentSkill(root: string): Promise<boolean> {
  return (await stat(join(root, "SKILL.md")).catch(() => undefined))?.isFile() === true;
}

/** Reads the skill folder `root` as a one-skill plugin; throws INVALID_PLUGIN listing each refusal. */
export async function loadAgentSkill(root: string): Promise<LoadedPlugin> {
  const refusals = new Refusals();
  const skill = await readForeignSkill(root, ".", refusals);
  refusals.throwIfAny(root, AGENT_SKILL_FORMAT);
  if (skill === undefined) throw new Error("unreachable: a skill that failed has refusals");
  const version = skill.metadata?.version;
  const manifest = parsePluginManifest(
    stringifyYaml({
      name: skill.name,
      version: version !== undefined && SEMVER.test(version) ? version : "1.0.0",
      description: skill.description,
    }),
    { file: "SKILL.md" },
  );
  return { dir: root, manifest, agents: [], skills: [skill], code: undefined, toolManifests: [] };
}
