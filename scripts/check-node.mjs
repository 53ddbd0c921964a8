// Refuses to go on under a Node.js older than oz0 supports, saying how to get the right one.
const [major] = process.versions.node.split(".").map(Number);
if (major < 22) {
  console.error(
    `oz0 needs Node.js 22 or later (24 LTS recommended); this is Node.js ${process.versions.node} at ${process.execPath}.\n` +
      "Run it through npm (npm run …, npx oz0 …), which puts the workspace's pinned Node 24 first on PATH, " +
      "or put node_modules/.bin first on PATH yourself.",
  );
  process.exit(1);
}
