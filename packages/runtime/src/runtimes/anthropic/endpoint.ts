// Where Claude Managed Agents is: only a node's operator says so, never a manifest or a tenant.
// The operator sets OZ0_ANTHROPIC_AGENTS_URL on the nodes that run remote:anthropic agents;
// left unset, oz0 calls Anthropic's API.
import { Oz0Error } from "@oz0/sdk";

export const AGENTS_URL_VARIABLE = "OZ0_ANTHROPIC_AGENTS_URL";
export const DEFAULT_AGENTS_URL = "https://api.anthropic.com";

/** The base URL of the Managed Agents API on this node. */
export function operatorAgentsUrl(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const value = env[AGENTS_URL_VARIABLE]?.trim();
  if (value === undefined || value === "") return DEFAULT_AGENTS_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badUrl(value);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badUrl(value);
  return value.replace(/\/+$/, "");
}

function badUrl(value: string): Oz0Error {
  return new Oz0Error("INVALID_INPUT", `${AGENTS_URL_VARIABLE} is '${value}', which is not an http(s) URL`, {
    data: { issues: [{ path: AGENTS_URL_VARIABLE, message: "an http(s) URL" }] },
  });
}
