// Writes addresses and patterns back as text, and names a part the way the server stores it.
import { BUILTIN_TOOL_ID } from "../names/index.js";
import type { Address, AddressPattern } from "./types.js";

/**
 * The text of an address or pattern; `parse…(formatAddress(a))` gives back `a`.
 * @example formatAddress({ kind: "tool-wildcard", plugin: "github", tool: "oz0_github" }) // "github/oz0_github.*"
 */
export function formatAddress(address: Address | AddressPattern): string {
  switch (address.kind) {
    case "function":
      return `${address.plugin}/${address.tool}.${address.function}`;
    case "tool":
      return `${address.plugin}/${address.tool}`;
    case "agent":
    case "flow":
    case "skill":
      return `${address.plugin}/${address.name}`;
    case "builtin":
      return `${BUILTIN_TOOL_ID}.${address.function}`;
    case "tool-wildcard":
      return `${address.plugin}/${address.tool}.*`;
    case "plugin-wildcard":
      return `${address.plugin}/*`;
    case "builtin-wildcard":
      return `${BUILTIN_TOOL_ID}.*`;
  }
}

/**
 * The name without its plugin. Once the owner check has passed, jobs, histories and stored
 * records carry this bare name, so nodes and jobs from before addresses see no change.
 * @example bareName(parseFunctionAddress("github/oz0_github.get_file")) // "oz0_github.get_file"
 */
export function bareName(address: Address): string {
  switch (address.kind) {
    case "function":
    case "builtin":
      return `${address.tool}.${address.function}`;
    case "tool":
      return address.tool;
    case "agent":
    case "flow":
    case "skill":
      return address.name;
  }
}
