// The agents a membership or a key may see and start: agent addresses (`hr/onboarding`),
// `tag:<tag>` for every agent with that tag, or `*` for all. Read here once, for the CLI's
// `--agents LIST` and the API's JSON list alike, so both refuse the same entries the same way.
import { isOz0Error, nameProblem, Oz0Error, parsePartAddress } from "@oz0/sdk";
import { ALL_AGENTS } from "../callers/index.js";

const FORMS = "each entry is an agent's address (<plugin>/<agent>), tag:<tag>, or * for every agent";

/**
 * Reads `--agents`: comma-separated entries, `*` when left out.
 * @example parseAgentList("hr/onboarding, tag:hr") // ["hr/onboarding", "tag:hr"]
 */
export function parseAgentList(text: string | undefined): string[] {
  if (text === undefined) return [...ALL_AGENTS];
  return checkAgentScope(text.split(",").map((entry) => entry.trim()));
}

/** Checks a list of scope entries and gives it back without repeats; refuses, naming the entry, one it cannot read. */
export function checkAgentScope(entries: readonly string[]): string[] {
  if (entries.length === 0) throw refuse("", "the list is empty; give * for every agent");
  const seen: string[] = [];
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem !== undefined) throw refuse(entry, problem);
    if (!seen.includes(entry)) seen.push(entry);
  }
  if (seen.includes("*") && seen.length > 1) {
    throw refuse("*", "* already covers every agent; give * alone, or the agents and tags without it");
  }
  return seen;
}

function entryProblem(entry: string): string | undefined {
  if (entry === "") return "an entry is empty (two commas in a row, or one at an end)";
  if (entry === "*") return undefined;
  if (entry.startsWith("tag:")) {
    const tag = entry.slice("tag:".length);
    return nameProblem("tag", tag);
  }
  try {
    parsePartAddress(entry, "agent");
    return undefined;
  } catch (error) {
    if (isOz0Error(error)) return error.message.replace(/\.$/, "");
    throw error;
  }
}

function refuse(entry: string, problem: string): Oz0Error {
  const message = `--agents entry '${entry}': ${problem}; ${FORMS}.`;
  return new Oz0Error("INVALID_INPUT", message, {
    data: { issues: [{ path: "agents", message: `'${entry}': ${problem}` }] },
  });
}

/**
 * Whether `granted` lies within `scope`: a caller limited to some agents may hand on only
 * entries it holds itself, so a key or a membership it makes sees no more than it does.
 */
export function withinScope(scope: readonly string[], granted: readonly string[]): boolean {
  if (scope.includes("*")) return true;
  return granted.every((entry) => scope.includes(entry));
}
