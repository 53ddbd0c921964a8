// The error table and the hook catalogue are data; docs/errors.md and docs/hooks.md are their
// pages. These tests fail when a code or hook is added, changed or removed on one side only.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, HOOK_POINTS } from "../../src/index.js";

const docsDir = new URL("../../../../docs/", import.meta.url);
const page = (name: string) => readFileSync(new URL(name, docsDir), "utf8");

describe("docs/errors.md", () => {
  const text = page("errors.md");
  const documented = [...text.matchAll(/^## ([A-Z_]+)$/gm)].map((match) => match[1]);

  it("documents every error code of the table, and no other", () => {
    expect(documented).toEqual(Object.keys(ERROR_CODES));
  });

  it("gives each code the side, HTTP status, retryable flag, summary and data the table gives", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const section = text.split(`## ${code}\n`)[1]?.split("\n## ")[0] ?? "";
      expect(section, code).toContain(`- side: ${info.side}`);
      expect(section, code).toContain(`- status: ${info.status}\n`);
      expect(section, code).toContain(`- retryable: ${info.retryable ? "yes" : "no"}\n`);
      expect(section, code).toContain(`- when: ${info.summary}`);
      expect(section, code).toContain(`- data: ${info.data}`);
    }
  });
});

describe("docs/hooks.md", () => {
  const text = page("hooks.md");
  const rows = [...text.matchAll(/^\| `([a-z_]+)` \| (Yes|No) \| (Yes|No) \| ([A-Za-z/ ]+) \|/gm)].map(
    (match) => ({
      name: match[1],
      blocking: match[2] === "Yes",
      modifying: match[3] === "Yes",
      category: match[4]?.trim(),
    }),
  );

  it("lists every hook point of the catalogue, in order, with its flags and category", () => {
    expect(rows).toEqual(
      HOOK_POINTS.map((hook) => ({
        name: hook.name,
        blocking: hook.blocking,
        modifying: hook.modifying,
        category: hook.category,
      })),
    );
  });
});
