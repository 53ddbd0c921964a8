import { describe, expect, it } from "vitest";
import { parseSkillFile } from "../../src/manifest/index.js";
import { fixture, issuesOf, onlyIssue } from "./helpers.js";

const file = "skills/research/SKILL.md";

describe("SKILL.md", () => {
  it("reads name, description and body", () => {
    expect(parseSkillFile(fixture("research.SKILL.md"), { file })).toEqual({
      name: "research",
      description: "How to research a question on the web and cite sources.",
      body: "# Research\n\n1. Search with at least two phrasings.\n2. Cite every claim.\n",
    });
  });

  it("takes the Agent Skills format's license and metadata", () => {
    const skill = parseSkillFile(
      "---\nname: research\ndescription: d\nlicense: MIT\nmetadata: { author: acme }\n---\nBody\n",
      { file },
    );
    expect(skill).toMatchObject({ license: "MIT", metadata: { author: "acme" } });
  });

  it("requires a description", () => {
    expect(onlyIssue(() => parseSkillFile("---\nname: research\n---\nBody\n", { file }))).toMatchObject({
      path: ["description"],
      message: "required, but missing",
    });
  });

  it("takes a description of 1024 characters and refuses 1025", () => {
    const text = (length: number) => `---\nname: research\ndescription: ${"d".repeat(length)}\n---\nBody\n`;
    expect(parseSkillFile(text(1024), { file }).description).toHaveLength(1024);
    expect(onlyIssue(() => parseSkillFile(text(1025), { file })).message).toContain(
      "at most 1024 characters",
    );
  });

  it("refuses a name that breaks the skill name rule", () => {
    expect(
      onlyIssue(() => parseSkillFile("---\nname: Research\ndescription: d\n---\nBody\n", { file })).path,
    ).toEqual(["name"]);
  });

  it("refuses a name that differs from its folder", () => {
    expect(
      onlyIssue(() => parseSkillFile("---\nname: search\ndescription: d\n---\nBody\n", { file })),
    ).toMatchObject({
      line: 2,
      column: 7,
      message: "the skill is named 'search' but sits in skills/research/; rename one to match",
    });
  });

  it("refuses an unknown front matter key, suggesting the nearest", () => {
    const issues = issuesOf(() =>
      parseSkillFile("---\nname: research\ndescripton: d\n---\nBody\n", { file }),
    );
    expect(issues.map((issue) => [issue.line, issue.message])).toEqual([
      [2, "required, but missing"],
      [3, "unknown key 'descripton'; did you mean 'description'?"],
    ]);
  });

  it("refuses an empty body", () => {
    expect(
      onlyIssue(() => parseSkillFile("---\nname: research\ndescription: d\n---\n", { file })).message,
    ).toContain("a skill's body is what an agent reads, and it is empty");
  });
});
