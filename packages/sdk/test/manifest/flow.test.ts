// biome-ignore-all lint/suspicious/noTemplateCurlyInString: flow references are written ${...} inside YAML strings
import { describe, expect, it } from "vitest";
import { findFlowReferences, parseFlowReference, parsePluginManifest } from "../../src/manifest/index.js";
import { issuesOf, onlyIssue } from "./helpers.js";

const file = "plugin.yaml";
const withFlows = (flows: string) =>
  parsePluginManifest(`name: p\nversion: 1.0.0\nflows:\n${flows}`, { file });
const problem = (flows: string) => onlyIssue(() => withFlows(flows));

const NOTES_FLOW = `  - name: weekly-notes
    description: Release notes for the week.
    input: text
    steps:
      - id: prs
        call: github/oz0_github.list_pull_requests
        args: { repo: "\${input}", state: merged }
      - id: notes
        agent: acme-release-notes
        input: "Write release notes for \${steps.prs.output.items}"
    result: "\${steps.notes.output}"
`;

describe("YAML flows", () => {
  it("parses a flow that calls a function and runs an agent on its result", () => {
    expect(withFlows(NOTES_FLOW).flows).toEqual([
      {
        name: "weekly-notes",
        description: "Release notes for the week.",
        input: "text",
        steps: [
          {
            id: "prs",
            call: "github/oz0_github.list_pull_requests",
            args: { repo: "${input}", state: "merged" },
          },
          {
            id: "notes",
            agent: "acme-release-notes",
            input: "Write release notes for ${steps.prs.output.items}",
          },
        ],
        result: "${steps.notes.output}",
      },
    ]);
  });

  it("refuses input with input_schema", () => {
    expect(
      problem("  - { name: f, input: text, input_schema: s.json, steps: [{ id: s, agent: a }] }\n").path,
    ).toEqual(["flows", 0, "input_schema"]);
  });

  it("refuses a flow without steps", () => {
    expect(problem("  - { name: f, steps: [] }\n").message).toBe("a flow needs at least one step");
  });

  it("refuses a step with both call and agent, or neither", () => {
    expect(problem("  - { name: f, steps: [{ id: s, call: t.f, agent: a }] }\n").message).toContain(
      "either call:",
    );
    expect(problem("  - { name: f, steps: [{ id: s }] }\n").path).toEqual(["flows", 0, "steps", 0]);
  });

  it("refuses args on an agent step and input on a call step", () => {
    expect(problem("  - { name: f, steps: [{ id: s, agent: a, args: {} }] }\n").path).toEqual([
      "flows",
      0,
      "steps",
      0,
      "args",
    ]);
    expect(problem("  - { name: f, steps: [{ id: s, call: t.f, input: x }] }\n").path).toEqual([
      "flows",
      0,
      "steps",
      0,
      "input",
    ]);
  });

  it.each(["Prs", "1st", "a.b", "a b"])("refuses the step id '%s'", (id) => {
    expect(problem(`  - { name: f, steps: [{ id: '${id}', agent: a }] }\n`).path).toEqual([
      "flows",
      0,
      "steps",
      0,
      "id",
    ]);
  });

  it("refuses two steps of one id", () => {
    expect(problem("  - { name: f, steps: [{ id: s, agent: a }, { id: s, agent: b }] }\n")).toMatchObject({
      path: ["flows", 0, "steps", 1, "id"],
      message: "step id 's' is used twice",
    });
  });

  it("refuses a reference to a step that runs later, at the string that holds it", () => {
    const flows = `  - name: f
    steps:
      - id: first
        agent: a
        input: { text: "\${steps.second.output}" }
      - id: second
        agent: b
`;
    expect(problem(flows)).toMatchObject({
      path: ["flows", 0, "steps", 0, "input", "text"],
      line: 8,
      column: 24,
      message: "step 'second' has not run yet here: a step can use only the results of steps before it",
    });
  });

  it("refuses a reference to a step that does not exist, and one that is not a reference", () => {
    const issues = issuesOf(() =>
      withFlows(
        '  - name: f\n    steps: [{ id: s, agent: a, input: "${steps.nope.output} ${env.HOME}" }]\n    result: "${steps.s}"\n',
      ),
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      "no step has the id 'nope'",
      "${env.HOME} is not a reference: write ${input}, ${input.<field>} or ${steps.<id>.output}",
      "${steps.s} is not a reference: write ${input}, ${input.<field>} or ${steps.<id>.output}",
    ]);
  });

  it("leaves $${...} as literal text", () => {
    expect(findFlowReferences("cost: $${input} and ${input.x}")).toEqual([
      { expression: "input.x", path: [] },
    ]);
  });

  it.each([
    ["input", { source: "input", path: [] }],
    ["input.repo.name", { source: "input", path: ["repo", "name"] }],
    ["steps.prs.output", { source: "step", step: "prs", path: [] }],
    ["steps.prs.output.items.0", { source: "step", step: "prs", path: ["items", "0"] }],
    ["steps.prs", undefined],
    ["inputs", undefined],
  ])("reads the reference %s", (expression, expected) => {
    expect(parseFlowReference(expression)).toEqual(expected);
  });
});
