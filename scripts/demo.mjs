// The main job on the embedded default: install the sample support-triage plugin into a
// fresh oz0 home (SQLite, offline test model), set tool policy, run its triage agent, and
// show the job's trace.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const home = fileURLToPath(new URL("../.oz0-home/", import.meta.url));
// The command as npm links it, which runs the built bundle.
const cli = fileURLToPath(new URL("../packages/cli/bin/oz0.js", import.meta.url));

rmSync(home, { recursive: true, force: true });

function oz0(...args) {
  console.log(`\n$ oz0 ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [cli, "--home", home, ...args], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function oz0Json(...args) {
  const result = spawnSync(process.execPath, [cli, "--home", home, "--json", ...args], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exit(result.status ?? 1);
  }
  return JSON.parse(result.stdout);
}

oz0("plugin", "install", "examples/support-triage");
oz0("catalog");
oz0("policy", "allow", "support-triage/tickets.*");
oz0("policy", "deny", "std/http.*");
oz0("policy", "list");
console.log('\n$ oz0 run support-triage/triage "Ticket 7: charged twice for the May invoice" --json');
const job = oz0Json("run", "support-triage/triage", "Ticket 7: charged twice for the May invoice");
console.log(JSON.stringify(job, null, 2));
oz0("job", "trace", job.id);
