// The code of merge-when-green: the fake repository tool `repo`, and the merge-when-green flow.
// Plain JavaScript with no imports: a plugin folder needs no package.json.

// Three open pull requests: one green, one with a failing test, one still building.
const pulls = new Map([
  [
    12,
    {
      number: 12,
      title: "Retry webhook deliveries",
      author: "ana",
      checks: { build: "success", test: "success" },
    },
  ],
  [
    13,
    {
      number: 13,
      title: "Upgrade the YAML parser",
      author: "bo",
      checks: { build: "success", test: "failure" },
    },
  ],
  [14, { number: 14, title: "Dark mode for the console", author: "cy", checks: { build: "pending" } }],
]);
const merged = new Map();
const CHANGELOG = "# Changelog\n\n## Unreleased\n\n- Faster plugin installs.\n";

/** A pull request's checks as one state: failure if any failed, pending if any runs, else success. */
function stateOf(pull) {
  const states = Object.values(pull.checks);
  if (states.includes("failure")) return "failure";
  if (states.includes("pending")) return "pending";
  return "success";
}

function pullRequest(number) {
  const pull = pulls.get(number);
  if (pull === undefined) throw new Error(`there is no pull request #${number}; open ones: 12, 13, 14`);
  return pull;
}

export default {
  setup(host) {
    host.addTool({
      name: "repo",
      description: "A fake repository with three open pull requests, their checks and a changelog.",
      build: () => ({
        functions: [
          {
            name: "list_pull_requests",
            description: "List the pull requests that are open (or merged).",
            input: { type: "object", properties: { state: { enum: ["open", "merged"] } } },
            run: async ({ state = "open" }) =>
              [...pulls.values()]
                .filter((pull) => merged.has(pull.number) === (state === "merged"))
                .map(({ number, title, author }) => ({ number, title, author })),
          },
          {
            name: "check_status",
            description: "The state of a pull request's checks: success, failure or pending.",
            input: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
            run: async ({ number }) => {
              const pull = pullRequest(number);
              return { number, title: pull.title, state: stateOf(pull), checks: pull.checks };
            },
          },
          {
            name: "merge",
            description: "Merge a pull request whose checks are green.",
            input: {
              type: "object",
              properties: { number: { type: "integer" }, method: { enum: ["merge", "squash"] } },
              required: ["number"],
            },
            // The idempotency key makes a merge run again after a crash a no-op.
            run: async ({ number, method = "squash" }, call) => {
              const pull = pullRequest(number);
              const done = merged.get(number);
              if (done !== undefined) return done;
              if (stateOf(pull) !== "success")
                throw new Error(`#${number} has ${stateOf(pull)} checks; merge only green ones`);
              const result = {
                number,
                merged: true,
                method,
                sha: `c0ffee${number}`,
                key: call.idempotencyKey,
              };
              merged.set(number, result);
              return result;
            },
          },
          {
            name: "read_file",
            description: "Read a file of the repository's default branch.",
            input: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
            run: async ({ path }) => {
              if (path !== "CHANGELOG.md")
                throw new Error(`the fake repository has only CHANGELOG.md, not ${path}`);
              return { path, text: CHANGELOG };
            },
          },
        ],
      }),
    });

    // A flow in code: it branches on the checks, which YAML steps cannot. Each ctx.call and
    // ctx.agent is a recorded step of the flow's job; a resumed job replays recorded steps
    // instead of running them again, so the flow decides only on its input and step results.
    host.addFlow({
      name: "merge-when-green",
      description: "Merge a pull request once its checks are green, then write its changelog entry.",
      input: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
      output: {
        type: "object",
        properties: {
          number: { type: "integer", title: "Pull request" },
          merged: { type: "boolean", title: "Merged" },
          state: { type: "string", title: "Checks" },
          sha: { type: "string", title: "Commit" },
          changelog: { type: "string", title: "Changelog" },
        },
        required: ["number", "merged", "state"],
        "x-oz0-order": ["number", "merged", "state"],
      },
      async run(ctx) {
        const { number } = ctx.input;
        const status = await ctx.call("repo.check_status", { number });
        if (status.state !== "success") return { number, merged: false, state: status.state };
        const merge = await ctx.call("repo.merge", { number, method: "squash" });
        const entry = await ctx.agent("changelog", { number, title: status.title });
        return { number, merged: true, state: status.state, sha: merge.sha, changelog: entry.summary };
      },
    });
  },
};
