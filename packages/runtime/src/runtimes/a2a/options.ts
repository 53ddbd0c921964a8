// The `harness:` options of an outside A2A agent (`runtime: remote:a2a`), read once for lint,
// install and each run alike. The endpoint is not among them: a node's operator sets it.
import { REMOTE_AGENT_OPTIONS } from "../anthropic/options.js";

/** Where an A2A agent publishes its card (the protocol's well-known path). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** The options spec/agent-definition.txt lists for an outside A2A agent. */
export const A2A_OPTIONS = [
  "card",
  "skill",
  "key",
  "signature",
  "jwks",
  "version",
  "auth",
  "task_usd",
  "poll",
  "session_header",
] as const;

/** How the tenant's secret goes with each request. */
export type A2aAuth = { readonly kind: "bearer" } | { readonly kind: "header"; readonly name: string };

export interface A2aOptions {
  /** The card's path under the operator's endpoint. */
  readonly card: string;
  readonly skill: string | undefined;
  /** The name of the tenant's secret (`oz0 remote secret set`), never its value. */
  readonly key: string | undefined;
  readonly auth: A2aAuth;
  /** The card must carry a signature by a key of `jwks`. */
  readonly signature: boolean;
  readonly jwks: { readonly keys: readonly Record<string, unknown>[] } | undefined;
  /** The agent version the card must state: exact, or a semver range. */
  readonly version: string | undefined;
  /** The most one task may cost, checked before the message goes out. */
  readonly taskUsd: number | undefined;
  /** Seconds between two reads of a running task. */
  readonly pollSeconds: number;
  /** The header the job's id goes in, so the remote agent keeps one session per job. */
  readonly sessionHeader: string | undefined;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const DEFAULT_POLL_SECONDS = 2;

/**
 * Reads the options; `problems` says what is wrong with each, in lint's words (an empty list:
 * they are fine). Unknown options, api_url above all, are refused.
 */
export function readA2aOptions(harness: Readonly<Record<string, unknown>> | undefined): {
  readonly options: A2aOptions;
  readonly problems: readonly string[];
} {
  const given = harness ?? {};
  const problems: string[] = [];
  for (const key of Object.keys(given)) {
    if (key === "api_url") continue; // the manifest schema refuses it already
    if ((REMOTE_AGENT_OPTIONS as readonly string[]).includes(key)) {
      problems.push(
        `harness.${key} is an option of a provider's remote agent (such as remote:anthropic), which an outside A2A agent does not take: its options are ${A2A_OPTIONS.join(", ")}`,
      );
    } else if (!(A2A_OPTIONS as readonly string[]).includes(key)) {
      problems.push(
        `harness.${key} is not an option of an outside A2A agent; its options are ${A2A_OPTIONS.join(", ")}`,
      );
    }
  }
  const text = (key: string): string | undefined => {
    const value = given[key];
    if (value === undefined) return undefined;
    if (typeof value === "string" && value.trim() !== "") return value;
    problems.push(`harness.${key} must be a non-empty string`);
    return undefined;
  };
  const card = text("card") ?? AGENT_CARD_PATH;
  if (!card.startsWith("/") || card.startsWith("//") || /[?#\s]/.test(card)) {
    problems.push(
      `harness.card is the card's path under the endpoint the node's operator sets (such as ${AGENT_CARD_PATH}), not '${card}'`,
    );
  }
  const key = text("key");
  if (key !== undefined && !SECRET_NAME.test(key)) {
    problems.push(
      "harness.key names the tenant's secret (oz0 remote secret set NAME), letters, digits, '.', '_' and '-'; never write the key itself in the manifest",
    );
  }
  const authText = text("auth");
  let auth: A2aAuth = { kind: "bearer" };
  if (authText !== undefined) {
    const header = /^header:(.+)$/.exec(authText)?.[1];
    if (authText === "bearer") auth = { kind: "bearer" };
    else if (header !== undefined && HEADER_NAME.test(header)) auth = { kind: "header", name: header };
    else problems.push(`harness.auth is bearer or header:<Header-Name>, not '${authText}'`);
    if (key === undefined) problems.push("harness.auth needs harness.key, the tenant's secret it sends");
  }
  const signatureValue = given.signature;
  if (signatureValue !== undefined && typeof signatureValue !== "boolean") {
    problems.push("harness.signature is true (the card must be signed by a key of harness.jwks) or false");
  }
  const signature = signatureValue === true;
  const jwksValue = given.jwks;
  let jwks: A2aOptions["jwks"];
  if (jwksValue !== undefined) {
    const keys = (jwksValue as { keys?: unknown } | null)?.keys;
    if (
      Array.isArray(keys) &&
      keys.length > 0 &&
      keys.every((entry) => typeof entry === "object" && entry !== null)
    ) {
      jwks = { keys: keys as Record<string, unknown>[] };
    } else {
      problems.push(
        "harness.jwks is a JSON Web Key Set, { keys: [ ...public keys ] }, with at least one key",
      );
    }
  }
  if (signature && jwks === undefined && jwksValue === undefined) {
    problems.push(
      "harness.signature: true needs harness.jwks, the public keys the card's signature is checked against",
    );
  }
  const version = text("version");
  const taskUsd = given.task_usd;
  if (taskUsd !== undefined && !(typeof taskUsd === "number" && Number.isFinite(taskUsd) && taskUsd > 0)) {
    problems.push("harness.task_usd is the most one task may cost, in US dollars: a number above 0");
  }
  const poll = given.poll;
  if (poll !== undefined && !(typeof poll === "number" && poll > 0 && poll <= 3600)) {
    problems.push(
      "harness.poll is the seconds between two reads of a running task: a number above 0, at most 3600",
    );
  }
  const sessionHeader = text("session_header");
  if (sessionHeader !== undefined && !HEADER_NAME.test(sessionHeader)) {
    problems.push(`harness.session_header is an HTTP header name, not '${sessionHeader}'`);
  }
  return {
    options: {
      card,
      skill: text("skill"),
      key,
      auth,
      signature,
      jwks,
      version,
      taskUsd: typeof taskUsd === "number" ? taskUsd : undefined,
      pollSeconds: typeof poll === "number" ? poll : DEFAULT_POLL_SECONDS,
      sessionHeader,
    },
    problems,
  };
}
