// A harness session's workspace: a folder of its own per tenant and agent address
// (`<home>/tenants/<tenant>/harness/<plugin>/<agent>`), so two plugins' agents of one name
// never share one; and in it, the agent's skills written as a read-only folder of the job's own
// (`.oz0/jobs/<job>/skills/<skill>/SKILL.md` and the skill's other files), fresh at every run
// and removed after it, so concurrent jobs of one agent never rewrite each other's.
import { chmod, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { HarnessSetting } from "../types.js";

/** Where a job's folder is in the workspace. */
export const JOBS_FOLDER = join(".oz0", "jobs");

/** The workspace of agent `<plugin>/<agent>` of `tenant` under oz0's home. */
export function harnessWorkspace(home: string, tenant: string, plugin: string, agent: string): string {
  return join(home, "tenants", tenant, "harness", plugin, agent);
}

/** The skills folder of job `job` in `workspace`. */
export function skillsFolder(workspace: string, job: string): string {
  return join(workspace, JOBS_FOLDER, job, "skills");
}

/** Writes job `job`'s skills folder; its path, or undefined when the agent has no skills. */
export async function prepareWorkspace(setting: HarnessSetting, job: string): Promise<string | undefined> {
  await mkdir(setting.workspace, { recursive: true });
  const folder = skillsFolder(setting.workspace, job);
  await removeSkills(folder);
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

/** Removes job `job`'s folder from the workspace once its run is over. */
export async function releaseWorkspace(setting: HarnessSetting, job: string): Promise<void> {
  const folder = join(setting.workspace, JOBS_FOLDER, job);
  await makeWritable(folder);
  await rm(folder, { recursive: true, force: true });
}

async function removeSkills(folder: string): Promise<void> {
  await makeWritable(folder);
  await rm(folder, { recursive: true, force: true });
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
