// An agent's failure contract from one version of its plugin to the next. Callers branch on an
// agent's failure kinds and their flags, so a new kind, or a flag turned on (retryable: trying
// again is expected of the caller; partial: the caller must deal with work half done; person:
// the caller must bring a person), asks more of every caller and needs a new major version.
// A kind dropped or a flag turned off asks less. Lint compares the versions here; the catalog
// refuses an update that breaks a contract (catalog/contract.ts).
// semver by function: its index loads all of its 47 modules.
import inc from "semver/functions/inc.js";
import major from "semver/functions/major.js";
import parse from "semver/functions/parse.js";
import prerelease from "semver/functions/prerelease.js";

/** The failure flags that ask more of a caller when they turn on. */
export const FAILURE_FLAGS = ["retryable", "partial", "person"] as const;
export type FailureFlag = (typeof FAILURE_FLAGS)[number];

/** What a caller can rely on of one agent: its failure kinds and their flags. */
export interface AgentContract {
  readonly name: string;
  readonly failures: readonly {
    readonly kind: string;
    readonly retryable?: boolean | undefined;
    readonly partial?: boolean | undefined;
    readonly person?: boolean | undefined;
  }[];
}

/** One version of a plugin's agents' contracts. */
export interface PluginContract {
  readonly version: string;
  readonly agents: readonly AgentContract[];
}

/** A change of an agent's contract that asks more of its callers. */
export interface ContractBreak {
  readonly agent: string;
  readonly kind: string;
  /** `kind`: the failure kind is new; otherwise the flag that turned on. */
  readonly change: "kind" | FailureFlag;
}

/**
 * Whether `to` is a new major version after `from`, the release a breaking change needs: a
 * higher major, or, before 1.0.0, a higher minor (0.1 → 0.2), as npm's `^` ranges read them.
 */
export function isNewMajor(from: string, to: string): boolean {
  const before = parse(from);
  const after = parse(to);
  if (before === null || after === null) return false;
  if (after.major !== before.major) return after.major > before.major;
  return before.major === 0 && after.minor > before.minor;
}

/** The version a breaking change of `from` should be released as. */
export function nextMajor(from: string): string {
  const version = parse(from);
  if (version === null) return "a new major version";
  const kind = major(version) === 0 && prerelease(version) === null ? "minor" : "major";
  return inc(version, kind) ?? "a new major version";
}

/**
 * What `after` asks more of callers than `before` did, for the agents both versions have
 * (a new agent has no callers yet; a dropped one is the references' and jobs' concern). None
 * when `after` is a new major version.
 */
export function contractBreaks(before: PluginContract, after: PluginContract): ContractBreak[] {
  if (isNewMajor(before.version, after.version)) return [];
  const breaks: ContractBreak[] = [];
  for (const agent of after.agents) {
    const was = before.agents.find((one) => one.name === agent.name);
    if (was === undefined) continue;
    for (const failure of agent.failures) {
      const old = was.failures.find((one) => one.kind === failure.kind);
      if (old === undefined) {
        breaks.push({ agent: agent.name, kind: failure.kind, change: "kind" });
        continue;
      }
      for (const flag of FAILURE_FLAGS) {
        if (failure[flag] === true && old[flag] !== true) {
          breaks.push({ agent: agent.name, kind: failure.kind, change: flag });
        }
      }
    }
  }
  return breaks;
}

/** One break in words, for a refusal or a lint finding. */
export function describeBreak(plugin: string, one: ContractBreak): string {
  const agent = `agent ${plugin}/${one.agent}`;
  return one.change === "kind"
    ? `${agent} adds the failure kind ${one.kind}`
    : `${agent} turns on ${one.change} for its failure kind ${one.kind} (${one.change}: false → true)`;
}
