// The owner check's refusal, worded once for every entry point that checks an address against
// the plugin the server knows owns the part.
import { bareName, formatAddress } from "./format.js";
import type { Address, BuiltinAddress } from "./types.js";

const ARTICLE = {
  function: "a function",
  tool: "a tool",
  agent: "an agent",
  flow: "a flow",
  skill: "a skill",
} as const;

/**
 * The message for an address whose plugin does not own the part it names. Built-ins have no
 * owner to check, so they are not accepted here.
 * @example notOwnedMessage({ address: parsePartAddress("github/triage", "agent"), owner: "support-triage" })
 * // "github/triage is not an agent of github: triage is support-triage's"
 */
export function notOwnedMessage(options: {
  address: Exclude<Address, BuiltinAddress>;
  owner: string;
}): string {
  const { address, owner } = options;
  const name = bareName(address);
  return `${formatAddress(address)} is not ${ARTICLE[address.kind]} of ${address.plugin}: ${name} is ${owner}'s`;
}
