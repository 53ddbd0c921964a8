// A harness session's workspace: the agent's folder, with the agent's skills written into it
// as a read-only folder (`.oz0/skills/<skill>/SKILL.md` and the skill's other files), fresh at
// every run so it holds what the agent has now.
import { chmod, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { HarnessSetting } from "../types.js";

/** Where the skills folder is in the workspace. */
export const SKILLS_FOLDER = join(".oz0", "skills");

/** Writes the skills folder; its path, or undefined when the agent has no skills. */
export async function prepareWorkspace(setting: HarnessSetting): Promise<string | undefined> {
  await mkdir(setting.workspace, { recursive: true });
  const folder = join(setting.workspace, SKILLS_FOLDER);
  await makeWritable(folder);
  await rm(folder, { recursive: true, force: true });
  if (setting.skills.length === 0) return undefined;
  for (const skill of setting.skills) {
    const at = inside(folder, skill.label);
    await mkdir(at, { recursive: true });
    await writeFile(join(at, "SKILL.md"), skill.body);
    for (const [path, text] of Object.entries(skill.files ?? {})) {
      const file = inside(at, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }
  await makeReadOnly(folder);
  return folder;
}

/** `path` under `base`, never outside it (a skill's file paths were checked at load; this keeps them so). */
function inside(base: string, path: string): string {
  const at = resolve(base, path);
  const between = relative(base, at);
  if (between.startsWith("..") || between.includes(`..${sep}`))
    throw new Error(`skill path ${path} leaves its folder`);
  return at;
}

async function makeReadOnly(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const at = join(folder, entry.name);
    if (entry.isDirectory()) await makeReadOnly(at);
    else await chmod(at, 0o444);
  }
  await chmod(folder, 0o555);
}

/** A previous run's read-only folder is made writable again so it can be replaced. */
async function makeWritable(folder: string): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    await chmod(folder, 0o755);
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) await makeWritable(join(folder, entry.name));
  }
}
