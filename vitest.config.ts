// Tests run against the TypeScript sources: the "@oz0/source" export condition points each
// workspace package at src/ so no build is needed first.
import { configDefaults, defineConfig } from "vitest/config";
import { RUN_ONCE } from "./packages/cli/test/run-once.js";

// Only these conditions: Vitest hands them to Node as --conditions, and "import" there makes
// CommonJS packages (pg's require of pg-pool) load ESM wrappers they cannot extend.
const conditions = ["@oz0/source", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@oz0/source"] } },
  test: {
    environment: "node",
    // oz0 imports a plugin's built code entry (plugins/*/dist): build the stale ones first, and
    // the console oz0 serve serves (packages/console/dist). Then choose the PostgreSQL server the
    // store's tests use, starting one when none answers.
    globalSetup: ["scripts/build-plugins.mjs", "scripts/build-console.mjs", "scripts/test-postgres.ts"],
    // Hang detectors, not budgets: no test or hook comes near them on a loaded 2-core machine,
    // and a test that waits for something (a deadline, a lease) sets its own durations.
    testTimeout: 300_000,
    // Two files at once on two cores, where Vitest's default leaves one core idle: most tests
    // spend their time waiting on child processes, servers and the database.
    maxWorkers: 2,
    hookTimeout: 300_000,
    onConsoleLog: (log) => {
      throw new Error(`a test wrote to the console unexpectedly: ${log}`);
    },
    projects: [
      {
        extends: true,
        test: {
          name: "oz0",
          include: ["packages/*/test/**/*.test.ts", "plugins/*/test/**/*.test.ts", "scripts/*.test.ts"],
        },
      },
      // The CLI's suite a second time, every command that can go through a server going through
      // a real one over loopback HTTP (packages/cli/test/run-cli.ts), on SQLite and PostgreSQL;
      // less the files whose commands all stay embedded there too (packages/cli/test/run-once.ts).
      {
        extends: true,
        test: {
          name: "cli-through-server",
          include: ["packages/cli/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...RUN_ONCE],
          env: { OZ0_TEST_CLI_THROUGH: "server" },
        },
      },
    ],
  },
});
