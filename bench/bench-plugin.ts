// The plugin every benchmark runs: one agent, `stepper`, with one function, `bench.echo`,
// written into a fresh home so each run measures a clean store.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MANIFEST = `name: bench
version: 1.0.0
main: index.js
capabilities: [tool]
tools:
  - id: bench
agents:
  - name: stepper
    tools: [bench.echo]
    skills: []
    input: text
    output: text
    limits: { max_turns: 100000, max_tokens: 100000000 }
`;

const CODE = `export default { setup(host) { host.addTool({ name: "bench", description: "Bench.", build: () => ({ functions: [
  { name: "echo", description: "Echo n.", input: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    run: async (args) => ({ n: args.n }) } ] }) }); } };
`;

/** A new temporary home named `<prefix>…` holding the bench plugin in `plugin/`. */
export async function benchHome(prefix: string): Promise<{ home: string; pluginDir: string }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  const pluginDir = join(home, "plugin");
  await mkdir(pluginDir);
  await writeFile(join(pluginDir, "plugin.yaml"), MANIFEST);
  await writeFile(join(pluginDir, "index.js"), CODE);
  return { home, pluginDir };
}
