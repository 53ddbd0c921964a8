// Reading a URL the http tool is asked to fetch (or redirected to) and deciding, before any
// packet is sent, whether its host may be reached: only http and https, no credentials in
// the URL, no localhost, no IP literal outside public unicast, unless an operator allowed
// the host. The URL parser normalises every spelling first (2130706433, 0x7f.1, 017700000001
// and 127.1 all become 127.0.0.1; [0:0::1] becomes [::1]), so the checks see one form.
import { isIP } from "node:net";
import { PolicyViolation } from "@oz0/sdk";
import type { AllowedHost } from "../config.js";
import { badArgument } from "../errors.js";
import { addressProblem } from "./addresses.js";

/** The contract a refusal names; the spec's governance column calls it "SSRF built-in". */
export const SSRF_CONTRACT = "ssrf";

export interface Target {
  readonly url: URL;
  /** The host to resolve or connect to: no brackets around IPv6, no final dot. */
  readonly host: string;
  /** An operator allowed this host, so its addresses are not checked. */
  readonly allowed: boolean;
  /** Where the URL came from, which a refusal names. */
  readonly origin: Origin;
}

/** Where a URL came from: the caller's argument, or a redirect from an earlier hop. */
export type Origin = { readonly kind: "argument" } | { readonly kind: "redirect"; readonly from: string };

/**
 * The checked target of `text`. Throws INVALID_INPUT for a URL the caller wrote wrong, and
 * PolicyViolation (contract `ssrf`) for a host that must not be reached or a bad redirect.
 */
export function checkTarget(text: string, allowHosts: readonly AllowedHost[], origin: Origin): Target {
  const url = parseUrl(text, origin);
  const refuse = (problem: string): never => {
    throw origin.kind === "argument"
      ? badArgument("url", problem)
      : redirectRefusal(origin.from, text, problem);
  };
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    refuse(
      `the scheme '${url.protocol.slice(0, -1)}' is not allowed; the http tool fetches only http and https URLs.`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    refuse(
      "the URL holds credentials (user:password@); send them in a header such as Authorization instead.",
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  const allowed = allowHosts.some((entry) => matches(entry, url, host));
  if (!allowed) {
    const problem = hostProblem(host);
    if (problem !== undefined) throw ssrfRefusal(url.href, problem, { host }, origin);
  }
  return { url, host, allowed, origin };
}

/** Why a host name or IP literal must not be reached, before resolving it; undefined for a name to resolve. */
export function hostProblem(host: string): string | undefined {
  if (isIP(host) !== 0) {
    const problem = addressProblem(host);
    return problem === undefined ? undefined : `${host} is ${problem}`;
  }
  const name = host.toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost"))
    return `${name} is a name of this machine (loopback)`;
  return undefined;
}

/** The refusal of a URL whose host, resolved address or connection must not be reached. */
export function ssrfRefusal(
  url: string,
  problem: string,
  details: Readonly<Record<string, unknown>>,
  origin?: Origin,
): PolicyViolation {
  const what = origin?.kind === "redirect" ? `the redirect from ${origin.from} to ${url}` : url;
  const because = problem.replace(/\.$/, "");
  return new PolicyViolation({
    contractId: SSRF_CONTRACT,
    reason: `${what}, because ${because}. Nothing was sent to it. The http tool reaches only public addresses; an operator can allow an internal host with the std plugin's http.allowHosts setting.`,
    details: { url, ...(origin?.kind === "redirect" ? { from: origin.from } : {}), ...details },
  });
}

/** The refusal of a redirect to a URL the tool does not fetch at all (another scheme, credentials). */
function redirectRefusal(from: string, to: string, problem: string): PolicyViolation {
  return new PolicyViolation({
    contractId: SSRF_CONTRACT,
    reason: `the redirect from ${from} to ${to}, because ${problem.replace(/\.$/, "")}. It was not followed.`,
    details: { url: to, from },
  });
}

function parseUrl(text: string, origin: Origin): URL {
  try {
    return origin.kind === "redirect" ? new URL(text, origin.from) : new URL(text);
  } catch {
    const problem = `'${text}' is not an absolute URL; write one such as https://api.example.com/items.`;
    throw origin.kind === "argument"
      ? badArgument("url", problem)
      : redirectRefusal(origin.from, text, problem);
  }
}

function matches(entry: AllowedHost, url: URL, host: string): boolean {
  const hostname = entry.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  if (hostname !== host) return false;
  return entry.port === undefined || entry.port === effectivePort(url);
}

/** The port a URL connects to, its scheme's default when it names none. */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}
