#!/usr/bin/env node
// The oz0 executable. It checks the Node.js version before loading anything else, since the
// rest of oz0 uses built-ins (node:sqlite) that older versions do not have.
const MIN_NODE_MAJOR = 22;
const major = Number(process.versions.node.split(".")[0]);
if (major < MIN_NODE_MAJOR) {
  process.stderr.write(
    `oz0 needs Node.js ${MIN_NODE_MAJOR} or later (24 LTS recommended); this is Node.js ${process.versions.node} at ${process.execPath}.\n` +
      "Run oz0 through npm (npx oz0 …, npm run …), which puts the workspace's pinned Node 24 first on PATH.\n",
  );
  process.exit(1);
}
const { runCli } = await import("./program.js");
process.exitCode = await runCli(process.argv.slice(2));
