// `oz0 init`: writes a new plugin folder that lints clean, installs, and runs on the offline
// model at once, so an author starts from something that works and changes it step by step.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { assertName, Oz0Error } from "@oz0/sdk";

export interface ScaffoldResult {
  readonly dir: string;
  readonly plugin: string;
  readonly files: readonly string[];
}

function files(plugin: string): Record<string, string> {
  return {
    "plugin.yaml": `name: ${plugin}
version: 0.1.0
description: Keeps short notes.
main: index.js
capabilities: [tool]
model: { use: default }
tools:
  - id: notes
    description: A small note store.
`,
    "agents/assistant.md": `---
name: assistant
description: Writes a note and reads the notes back.
tools: [notes.add, notes.list]
input: text
output: text
model: { use: test, script: scripts/assistant.yaml }
---
You keep notes for the user. Save what they ask you to remember with \`notes__add\`, then
read all notes back with \`notes__list\` and answer with how many there are.
`,
    "scripts/assistant.yaml": `# The offline test model plays these turns in order; remove the model: line of the agent
# to use the tenant's default model instead.
turns:
  - call: { function: notes__add, args: { text: "Buy milk" } }
  - call: { function: notes__list, args: {} }
  - text: "You have 1 note."
`,
    "skills/note-style/SKILL.md": `---
name: note-style
description: How to word a note.
---
Write each note as one short sentence that starts with a verb.
`,
    "index.js": `// The notes tool. A code entry default-exports an object with setup(host); importing
// definePlugin from @oz0/sdk adds types but is not needed.
const notes = [];

export default {
  setup(host) {
    host.addTool({
      name: "notes",
      description: "A small note store.",
      build: () => ({
        functions: [
          {
            name: "add",
            description: "Save a note.",
            input: { type: "object", properties: { text: { type: "string", minLength: 1 } }, required: ["text"] },
            run: async ({ text }) => {
              notes.push(text);
              return { saved: text, count: notes.length };
            },
          },
          {
            name: "list",
            description: "List every saved note.",
            input: { type: "object", properties: {} },
            run: async () => ({ notes }),
          },
        ],
      }),
    });
  },
};
`,
  };
}

/**
 * Writes a new plugin into `dir` (created if missing, refused if not empty). The plugin's
 * name is the folder's name unless `name` is given.
 */
export async function scaffoldPlugin(dir: string, options: { name?: string } = {}): Promise<ScaffoldResult> {
  const target = resolve(dir);
  const plugin = options.name ?? basename(target);
  assertName("plugin", plugin);
  const existing = await readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  if (existing.length > 0) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${target} is not empty; oz0 init writes a new plugin only into an empty or new folder, so nothing is overwritten`,
      { data: { plugin, detail: "folder not empty" } },
    );
  }
  const written: string[] = [];
  for (const [path, text] of Object.entries(files(plugin))) {
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), text, { flag: "wx" });
    written.push(path);
  }
  return { dir: target, plugin, files: written };
}
