// An outside A2A agent's card, fetched from the operator's endpoint and checked against what
// the agent's options ask of it: a signature by a key of `jwks`, the agent `version`, the
// `skill`, and interfaces that stay on the operator's endpoint.
import type { AgentCard } from "@a2a-js/sdk";
import { Oz0Error } from "@oz0/sdk";
// semver by function: its index loads all of its 47 modules.
import satisfies from "semver/functions/satisfies.js";
import valid from "semver/functions/valid.js";
import validRange from "semver/ranges/valid.js";
import type { A2aOptions } from "./options.js";

/** The card's URL: the card's path under the endpoint's own path. */
export function cardUrl(endpoint: URL, path: string): URL {
  const base = endpoint.href.endsWith("/") ? endpoint.href.slice(0, -1) : endpoint.href;
  return new URL(`${base}${path}`);
}

/** Fetches the card and checks it; every refusal names the card and what to change. */
export async function fetchCheckedCard(
  endpoint: URL,
  options: A2aOptions,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<AgentCard> {
  const { DefaultAgentCardResolver, canonicalizeAgentCard } = await sdk();
  const url = cardUrl(endpoint, options.card);
  let body: unknown;
  try {
    const response = await fetchImpl(url, { headers: { accept: "application/json" }, signal });
    if (!response.ok) throw new Error(`it answered HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    if (signal.aborted) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Oz0Error("NETWORK_ERROR", `the A2A agent card at ${url.href} could not be read: ${cause}`, {
      data: { url: url.href, cause },
    });
  }
  let card: AgentCard;
  try {
    card = new DefaultAgentCardResolver().normalizeAgentCard(body);
  } catch (error) {
    throw refused(url, `is not an A2A agent card: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.signature) {
    const keys = options.jwks?.keys ?? [];
    if (card.signatures.length === 0) {
      throw refused(url, "carries no signature, and harness.signature asks for one by a key of harness.jwks");
    }
    const why = await signatureProblem(card, keys, canonicalizeAgentCard(card));
    if (why !== undefined) {
      throw refused(
        url,
        `has no valid signature by a key of harness.jwks (${why}); oz0 does not call an agent whose card it cannot verify`,
      );
    }
  }
  if (options.version !== undefined && !versionMatches(card.version, options.version)) {
    throw refused(
      url,
      `states agent version '${card.version}', and harness.version asks for ${options.version}`,
    );
  }
  if (options.skill !== undefined && !card.skills.some((skill) => skill.id === options.skill)) {
    const ids = card.skills.map((skill) => skill.id);
    throw refused(
      url,
      `has no skill '${options.skill}' (harness.skill); its skills: ${ids.join(", ") || "none"}`,
    );
  }
  // Calls go where the operator said, whatever else the card lists.
  const onEndpoint = card.supportedInterfaces.filter(
    (entry) => entry.protocolBinding === "JSONRPC" && sameEndpoint(entry.url, endpoint),
  );
  if (onEndpoint.length === 0) {
    const listed = card.supportedInterfaces.map((entry) => `${entry.protocolBinding} ${entry.url}`);
    throw refused(
      url,
      `lists no JSON-RPC interface on the endpoint the node's operator set (${endpoint.origin}); it lists ${listed.join(", ") || "none"}`,
    );
  }
  return { ...card, supportedInterfaces: onEndpoint };
}

/**
 * Why none of the card's signatures (JWS over the card's JCS form, spec §8.4) verifies with a
 * key of `keys`, or undefined when one does.
 */
async function signatureProblem(
  card: AgentCard,
  keys: readonly Record<string, unknown>[],
  canonical: string,
): Promise<string | undefined> {
  const { flattenedVerify, importJWK, decodeProtectedHeader } = await import("jose");
  const payload = Buffer.from(canonical).toString("base64url");
  let why = "no signature verifies";
  for (const signature of card.signatures) {
    try {
      const { kid, alg } = decodeProtectedHeader({
        protected: signature.protected,
        payload,
        signature: signature.signature,
      });
      const jwk =
        keys.find((entry) => entry.kid === kid) ??
        (keys.length === 1 && kid === undefined ? keys[0] : undefined);
      if (jwk === undefined) {
        why = `harness.jwks has no key '${kid ?? ""}'`;
        continue;
      }
      const key = await importJWK(jwk, typeof alg === "string" ? alg : undefined);
      await flattenedVerify({ protected: signature.protected, payload, signature: signature.signature }, key);
      return undefined;
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
  }
  return why;
}

function versionMatches(version: string, wanted: string): boolean {
  if (version === wanted) return true;
  const range = validRange(wanted);
  return range !== null && valid(version) !== null && satisfies(version, range);
}

function sameEndpoint(url: string, endpoint: URL): boolean {
  try {
    return new URL(url).origin === endpoint.origin;
  } catch {
    return false;
  }
}

function refused(url: URL, why: string): Oz0Error {
  return new Oz0Error("REMOTE_AGENT_ERROR", `the A2A agent card at ${url.href} ${why}`, {
    data: { url: url.href, reason: "card" },
  });
}

/** The A2A SDK, loaded when a remote agent first runs: lint and the catalog never load it. */
export async function sdk(): Promise<typeof import("@a2a-js/sdk") & typeof import("@a2a-js/sdk/client")> {
  const [root, client] = await Promise.all([import("@a2a-js/sdk"), import("@a2a-js/sdk/client")]);
  return { ...root, ...client };
}
