// What running the repository's own tools leaves in its work tree: only what git is told about.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The repository's own plugin folders: examples/* and plugins/* with a plugin.yaml. */
function pluginFolders(): string[] {
  return ["examples", "plugins"].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, "plugin.yaml")))
      .map((entry) => `${parent}/${entry.name}`),
  );
}

describe("the repository's work tree", () => {
  it("ignores the tools.listing.json that oz0 plugin lint writes into each of its own plugins", () => {
    const listings = pluginFolders().map((folder) => `${folder}/tools.listing.json`);
    expect(listings).toContain("examples/support-triage/tools.listing.json");
    const result = spawnSync("git", ["check-ignore", "--verbose", "--non-matching", ...listings], {
      cwd: root,
      encoding: "utf8",
    });
    // --non-matching prints "::\t<path>" for a path no ignore rule matches.
    const notIgnored = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("::"))
      .map((line) => line.split("\t")[1]);
    expect(result.error).toBeUndefined();
    expect(notIgnored).toEqual([]);
  });
});
