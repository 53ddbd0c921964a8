import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/manifest/index.js";
import { errorOf, fixture, issuesOf, onlyIssue } from "./helpers.js";

describe("Markdown agents", () => {
  it("reads the front matter as the definition and the body as the prompt", () => {
    const agent = parseAgentFile(fixture("reviewer.agent.md"), { file: "agents/pr-reviewer.md" });
    expect(agent.format).toBe("markdown");
    expect(agent.prompt).toBe(
      "You review pull requests. Read the diff with oz0_github.get_pull_request,\nthen list what to change, most important first.\n",
    );
    expect(agent.definition).toMatchObject({
      name: "pr-reviewer",
      tools: ["github/oz0_github.get_pull_request", "oz.fail"],
      failures: [
        { kind: "not_found", retryable: false, partial: false, person: false },
        { kind: "too_large", retryable: true },
      ],
      tags: ["code-review", "github"],
    });
  });

  it("refuses instructions in a Markdown agent, at the key", () => {
    const text = "---\nname: a\ninstructions: prompts/a.md\n---\nYou sort tickets.\n";
    expect(onlyIssue(() => parseAgentFile(text, { file: "agents/a.md" }))).toMatchObject({
      file: "agents/a.md",
      line: 3,
      column: 1,
      path: ["instructions"],
      message: expect.stringContaining("a Markdown agent has no instructions: its body is the prompt"),
    });
  });

  it("refuses an empty body, at the line after the front matter", () => {
    expect(
      onlyIssue(() => parseAgentFile("---\nname: a\n---\n\n  \n", { file: "agents/a.md" })),
    ).toMatchObject({
      line: 4,
      column: 1,
      message: expect.stringContaining("a Markdown agent's body is its prompt, and it is empty"),
    });
  });

  it("places front matter problems at the file's own lines", () => {
    const text = "---\nname: a\ntags: [Bad]\nfailures: [{ kind: timeout, description: x }]\n---\nPrompt.\n";
    const issues = issuesOf(() => parseAgentFile(text, { file: "agents/a.md" }));
    expect(issues.map((issue) => [issue.path.join("."), issue.line, issue.column])).toEqual([
      ["tags.0", 3, 8],
      ["failures.0.kind", 4, 20],
    ]);
  });

  it("places YAML problems in the front matter at the file's own lines", () => {
    expect(
      onlyIssue(() => parseAgentFile("---\nname: a\nname: b\n---\nPrompt.\n", { file: "agents/a.md" })),
    ).toMatchObject({
      line: 3,
      column: 1,
    });
    expect(
      errorOf("UNSAFE_YAML", () => parseAgentFile("---\nname: !x a\n---\nP\n", { file: "agents/a.md" })).data,
    ).toMatchObject({
      line: 2,
    });
  });

  it("refuses a file without front matter", () => {
    expect(
      onlyIssue(() => parseAgentFile("# Agent\nYou sort tickets.\n", { file: "agents/a.md" })),
    ).toMatchObject({
      line: 1,
      column: 1,
      message: expect.stringContaining("must start with YAML front matter"),
    });
  });

  it("refuses front matter that is never closed", () => {
    expect(
      onlyIssue(() => parseAgentFile("---\nname: a\nPrompt.\n", { file: "agents/a.md" })).message,
    ).toContain("never closed");
  });

  it("reads front matter from a file with Windows line ends", () => {
    const agent = parseAgentFile("---\r\nname: a\r\ninput: text\r\n---\r\nPrompt.\r\n", {
      file: "agents/a.md",
    });
    expect(agent.definition).toMatchObject({ name: "a", input: "text" });
    expect(agent.prompt).toBe("Prompt.\r\n");
  });

  it("refuses a Markdown agent over 1 MiB before reading it", () => {
    const text = `---\nname: a\n---\n${"x".repeat(1024 * 1024)}`;
    expect(errorOf("UNSAFE_YAML", () => parseAgentFile(text, { file: "agents/a.md" })).data).toMatchObject({
      limit: 1024 * 1024,
    });
  });
});

describe("YAML agents", () => {
  it.each(["agents/a.yaml", "agents/a.yml"])("reads %s as YAML, with no prompt", (file) => {
    expect(parseAgentFile("name: a\ninstructions: prompts/a.md\n", { file })).toMatchObject({
      format: "yaml",
      prompt: undefined,
      definition: { name: "a", instructions: "prompts/a.md" },
    });
  });

  it("refuses an agent file of another extension", () => {
    expect(onlyIssue(() => parseAgentFile("name: a\n", { file: "agents/a.json" })).message).toBe(
      "an agent file ends with .yaml, .yml or .md",
    );
  });
});
