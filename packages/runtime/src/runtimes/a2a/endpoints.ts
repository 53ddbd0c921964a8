// Where an outside A2A agent is: only a node's operator says so, never a manifest. The
// operator lists each agent's endpoint in OZ0_A2A_ENDPOINTS on the nodes that run it, as
// `<plugin>/<agent>=<url>` entries separated by commas or whitespace.
import { Oz0Error } from "@oz0/sdk";

export const ENDPOINTS_VARIABLE = "OZ0_A2A_ENDPOINTS";

/** The endpoint the operator set for agent `address`, or undefined. */
export function operatorEndpoint(
  address: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): URL | undefined {
  const listed = env[ENDPOINTS_VARIABLE] ?? "";
  for (const entry of listed.split(/[\s,]+/)) {
    const at = entry.indexOf("=");
    if (at <= 0 || entry.slice(0, at) !== address) continue;
    const value = entry.slice(at + 1);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw badEndpoint(address, value);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw badEndpoint(address, value);
    return url;
  }
  return undefined;
}

function badEndpoint(address: string, value: string): Oz0Error {
  return new Oz0Error(
    "INVALID_INPUT",
    `${ENDPOINTS_VARIABLE} gives ${address} the endpoint '${value}', which is not an http(s) URL`,
    { data: { issues: [{ path: ENDPOINTS_VARIABLE, message: "an http(s) URL" }] } },
  );
}
