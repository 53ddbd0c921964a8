// The failure contract of an installed version, and the update it refuses: a version that asks
// more of its agents' callers (lint/contracts.ts says what that means) without a new major
// version, unless forced.
import { Oz0Error } from "@oz0/sdk";
import {
  type AgentContract,
  type ContractBreak,
  contractBreaks,
  describeBreak,
  nextMajor,
  type PluginContract,
} from "../lint/index.js";
import { bulleted } from "./errors.js";
import type { StoredPart } from "./parts.js";
import type { StoredPlugin } from "./view.js";

/** The contract of an installed (or about to be installed) version, from its stored parts. */
export function storedContract(plugin: {
  readonly version: string;
  readonly parts: readonly StoredPart[];
}): PluginContract {
  const agents: AgentContract[] = [];
  for (const part of plugin.parts) {
    if (part.kind === "agent") agents.push({ name: part.name, failures: part.definition.failures ?? [] });
  }
  return { version: plugin.version, agents };
}

/**
 * Refuses an update that breaks an agent's contract without a new major version, unless a
 * reason forces it; returns the breaks forced past.
 */
export function refuseBrokenContract(
  tenant: string,
  before: StoredPlugin,
  after: StoredPlugin,
  reason: string | null,
  attempt: string,
): readonly ContractBreak[] {
  const breaks = contractBreaks(storedContract(before), storedContract(after));
  if (breaks.length === 0 || reason !== null) return breaks;
  throw new Oz0Error(
    "BREAKING_CHANGE",
    `${attempt}: it asks more of its agents' callers without a new major version:${bulleted(
      breaks.map((one) => describeBreak(after.name, one)),
    )}\nCallers branch on an agent's failure kinds and flags: release this as ${nextMajor(before.version)}, ` +
      "or go ahead anyway with --force --reason TEXT.",
    {
      data: {
        tenant,
        plugin: after.name,
        from: before.version,
        to: after.version,
        breaks,
      },
    },
  );
}
