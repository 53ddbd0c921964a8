// The CLI test files the second pass (the cli-through-server project, vitest.config.ts) leaves
// out: every command they run stays embedded there too, so it would run them again unchanged.
// Each runs its CLI as processes of its own, or only commands of this machine (src/local-only.ts),
// or only on homes the tests keep embedded (tempHome({ embedded: true })). run-cli.ts holds the
// list to that in the first pass: a command of one of these files that would go through a server
// in the second fails the test, naming the file to take off the list.

/** By path from the repository's root. */
export const RUN_ONCE: readonly string[] = [
  // The bin npm links, started as a process.
  "packages/cli/test/bin.test.ts",
  // The terminal's drawing: no command at all.
  "packages/cli/test/draw/card.test.ts",
  "packages/cli/test/draw/terminal.test.ts",
  // The command tree's help pages and refusals, which run no command.
  "packages/cli/test/program.test.ts",
  // The conformance suite against `oz0 mcp serve` and `oz0 mcp login`, each a process of its own.
  "packages/cli/test/mcp-conformance.test.ts",
  // `oz0 mcp serve` as its own process, under the MCP SDK's client and the MCP Inspector.
  "packages/cli/test/mcp-serve.test.ts",
  // Nodes, workers and routines on stores with no worker but the tests' own (embedded homes).
  "packages/cli/test/node.test.ts",
  "packages/cli/test/plugin-runtimes-nodes.test.ts",
  "packages/cli/test/routine.test.ts",
  "packages/cli/test/run-stream.test.ts",
  "packages/cli/test/soak-nodes.test.ts",
  "packages/cli/test/worker.test.ts",
];
