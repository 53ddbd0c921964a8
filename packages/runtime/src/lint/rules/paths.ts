// OZ-S001 and OZ-S002: every file the plugin names must be inside its folder and exist, so a
// job never finds one missing. Paths written with '..' or as absolute paths are refused by the
// schema (and classified OZ-S001 there); this rule adds links that lead out, and files that
// are not there.
import { pathReferences } from "../collect.js";
import { finding, type LintFinding } from "../finding.js";
import { placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkPaths: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const reference of pathReferences(files)) {
    const { field, value } = reference;
    const place = placeOf(reference.source, reference.path);
    switch (files.paths.get(value)) {
      case "link-escapes":
        found.push(
          finding(
            "OZ-S001",
            place,
            `${field} '${value}' is a link that leads out of the plugin folder; put the file itself inside the folder`,
          ),
        );
        break;
      case "missing":
        found.push(
          finding(
            "OZ-S002",
            place,
            `${field} '${value}' does not exist in the plugin folder; create it, or fix the path`,
          ),
        );
        break;
      case "not-a-file":
        found.push(
          finding("OZ-S002", place, `${field} '${value}' is a folder, not a file; name a file inside it`),
        );
        break;
      default:
        break;
    }
  }
  return found;
};
