// Name resolution for the http tool, checked twice: once before the request, so a refusal
// says why before anything is sent to the host, and again inside the connection's own
// lookup, so the address actually connected to is one that was checked, even when the name
// answers differently the second time (DNS rebinding).

import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { addressProblem } from "./addresses.js";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; tests pass their own. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (hosts file, then DNS), every address in the order it gives them. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, order: "verbatim" });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** The first refused address among `addresses` with what it is, or undefined when all are public. */
export function refusedAddress(
  addresses: readonly ResolvedAddress[],
): { readonly address: string; readonly problem: string } | undefined {
  for (const { address } of addresses) {
    const problem = addressProblem(address);
    if (problem !== undefined) return { address, problem };
  }
  return undefined;
}

/**
 * A `lookup` for node's connect that resolves with `resolver` and, unless `checked` is
 * false, fails with `refuse(address, problem)` when any address is refused: a name with one
 * internal address among public ones is refused whole.
 */
export function guardedLookup(
  resolver: Resolver,
  checked: boolean,
  refuse: (address: string, problem: string) => Error,
): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const refused = checked ? refusedAddress(addresses) : undefined;
        if (refused !== undefined) return callback(refuse(refused.address, refused.problem), "", 0);
        const family = familyNumber(options.family);
        const usable = addresses.filter((entry) => family === 0 || entry.family === family);
        const first = usable[0];
        if (first === undefined) {
          const error = Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
          return callback(error, "", 0);
        }
        if (options.all)
          return callback(
            null,
            usable.map((entry): LookupAddress => ({ ...entry })),
          );
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

function familyNumber(family: LookupOptions["family"]): 0 | 4 | 6 {
  if (family === 4 || family === "IPv4") return 4;
  return family === 6 || family === "IPv6" ? 6 : 0;
}
