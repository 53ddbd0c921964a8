// OZ-S043 and OZ-S044: an admin spec's config schema (the console's form, and the check of every
// config set) is a JSON Schema oz0 can check, and the defaults the plugin runs with before any
// operator sets anything pass it. Lint reports them and install refuses them, since such a
// plugin would run with a config it refuses, or take none at all.
import type { AdminSpec } from "@oz0/sdk";
import type { Registration } from "@oz0/sdk/internal";
import { argumentIssues, formatIssues } from "../../schemas/index.js";
import { finding, type LintFinding } from "../finding.js";
import { placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkAdmin: LintRule = (files) => {
  const manifest = files.manifest;
  if (manifest === undefined || files.code.status !== "loaded") return [];
  const admins = files.code.registrations.filter(
    (registration): registration is Registration<"admin"> => registration.kind === "admin",
  );
  if (admins.length === 0) return [];
  const at = placeOf(manifest, Object.hasOwn(manifest.raw, "main") ? ["main"] : []);
  const defaults: Record<string, unknown> = {};
  for (const { spec } of admins) Object.assign(defaults, (spec as AdminSpec).defaultConfig);
  const found: LintFinding[] = [];
  for (const { name, spec } of admins) {
    const schema = (spec as AdminSpec).schema;
    if (schema === undefined) continue;
    let problems: string | undefined;
    try {
      const issues = argumentIssues(schema, defaults);
      problems = issues.length === 0 ? undefined : formatIssues(issues);
    } catch (error) {
      found.push(
        finding(
          "OZ-S043",
          at,
          `admin spec '${name}': its schema is not a JSON Schema oz0 can check (${error instanceof Error ? error.message : String(error)}), so no config could be set; fix the schema`,
        ),
      );
      continue;
    }
    if (problems !== undefined) {
      found.push(
        finding(
          "OZ-S044",
          at,
          `admin spec '${name}': the default config does not pass its schema (${problems}); make defaultConfig pass it`,
        ),
      );
    }
  }
  return found;
};
