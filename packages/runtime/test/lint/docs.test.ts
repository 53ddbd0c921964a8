import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LINT_CODES, OFFICIAL_HARNESSES } from "../../src/lint/index.js";

const DOCS = join(import.meta.dirname, "../../../../docs");

describe("docs/lint.md", () => {
  it("documents every lint code, and no code that does not exist", async () => {
    const page = await readFile(join(DOCS, "lint.md"), "utf8");
    const documented = [...page.matchAll(/^## (OZ-[ES]\d{3})\b/gm)].map((match) => match[1]);
    expect(documented).toEqual(Object.keys(LINT_CODES));
  });

  it("gives each code its severity, an example and the fix", async () => {
    const page = await readFile(join(DOCS, "lint.md"), "utf8");
    for (const [code, info] of Object.entries(LINT_CODES)) {
      const section = page.split(/^## /m).find((part) => part.startsWith(code)) ?? "";
      expect(section, code).toContain(`**${info.severity}**`);
      expect(section, code).toMatch(/```/);
      expect(section, code).toMatch(/\*\*Fix\*\*/);
    }
  });

  it("lists the official harnesses lint knows", async () => {
    const page = await readFile(join(DOCS, "lint.md"), "utf8");
    for (const name of Object.keys(OFFICIAL_HARNESSES)) expect(page).toContain(`\`${name}\``);
  });
});
