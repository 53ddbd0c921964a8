#!/usr/bin/env node
// The oz0 executable, as npm links it (node_modules/.bin/oz0, npx oz0). It is plain JavaScript
// in the repository, so the link exists from `npm ci` on, before anything is built. It checks
// the Node.js version before loading anything else, since the rest of oz0 uses built-ins
// (node:sqlite) that older versions do not have, and says what to do when oz0 is not built.
import { existsSync } from "node:fs";

const MIN_NODE_MAJOR = 22;
const major = Number(process.versions.node.split(".")[0]);
if (major < MIN_NODE_MAJOR) {
  process.stderr.write(
    `oz0 needs Node.js ${MIN_NODE_MAJOR} or later (24 LTS recommended); this is Node.js ${process.versions.node} at ${process.execPath}.\n` +
      "Run oz0 through npm (npx oz0 …, npm run …), which puts the workspace's pinned Node 24 first on PATH.\n",
  );
  process.exit(1);
}
const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("oz0 is not built yet: run npm run build in the oz0 workspace, then try again.\n");
  process.exit(1);
}
await import(main.href);
