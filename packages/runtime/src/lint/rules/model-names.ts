// OZ-S007: a model sees a function as <tool>__<function>, and a node leaves out a function
// whose name is longer than 64 characters whatever the provider (OpenAI's formats take at most
// 64). Measured over the listing lint writes (tools.listing.json), where each finding points.
import { MODEL_NAME_LIMIT } from "@oz0/sdk";
import { finding, type LintFinding } from "../finding.js";
import { placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkModelNames: LintRule = (files) => {
  const source = files.listing;
  if (source === undefined) return [];
  const found: LintFinding[] = [];
  source.listing.functions.forEach((fn, index) => {
    if (fn.name.length <= MODEL_NAME_LIMIT) return;
    found.push(
      finding(
        "OZ-S007",
        placeOf(source, ["functions", index, "name"]),
        `a model would see ${fn.address} as '${fn.name}', ${fn.name.length} characters; a node leaves out a function whose name is over ${MODEL_NAME_LIMIT}, whatever the provider: shorten the tool ID or the function name`,
      ),
    );
  });
  return found;
};
