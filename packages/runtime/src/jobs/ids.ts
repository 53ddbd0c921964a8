// Job IDs and worker identities. A job's ID starts with its agent's bare name, and a child
// job's ID is its parent's ID plus the child agent's name and the call that started it, so a
// child is created once however often the parent's step runs again.
import { createHash, randomFillSync } from "node:crypto";
import { hostname } from "node:os";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * Random bytes drawn from the system's generator 4 KiB at a time, each used once: a draw per ID
 * cost more than the rest of making it.
 */
const pool = new Uint8Array(4096);
let pooled = pool.length;

function randomText(length: number): string {
  if (pooled + length > pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  let text = "";
  for (let index = 0; index < length; index++) text += ALPHABET[pool[pooled + index]! % ALPHABET.length];
  pooled += length;
  return text;
}

/**
 * A new job's ID: the agent's name, then a time-ordered, random part.
 * @example newJobId("triage") // "triage-m8x2k1a0q7fz3d"
 */
export function newJobId(agent: string): string {
  return `${agent}-${Date.now().toString(36)}${randomText(8)}`;
}

/**
 * The ID of the job an idempotency key starts: the agent's name, then a digest of the tenant and
 * the key, so that a second start with the key finds the first job by its ID.
 * @example keyedJobId("triage", "default", "ticket-7") // "triage-k3f9…" (24 characters after the k)
 */
export function keyedJobId(agent: string, tenant: string, key: string): string {
  const digest = createHash("sha256").update(`${tenant}\0${key}`, "utf8").digest();
  let text = "";
  for (const byte of digest.subarray(0, 24)) text += ALPHABET[byte % ALPHABET.length];
  return `${agent}-k${text}`;
}

/**
 * The ID of the child job a parent's call starts; the same for every attempt of the call.
 * @example childJobId("triage-m8x2k1a0q7fz3d", "escalate", "3.1") // "triage-m8x2k1a0q7fz3d.escalate-3-1"
 */
export function childJobId(parent: string, agent: string, callId: string): string {
  return `${parent}.${agent}-${callId.replaceAll(".", "-")}`;
}

/** This process as a worker: host, process ID, and a random part for processes that reuse an ID. */
export function newNodeId(): string {
  return `${hostname()}:${process.pid}:${randomText(4)}`;
}

/** The token of one claim: writes carry it, and a later claim by anyone replaces it. */
export function newLeaseToken(node: string): string {
  return `${node}#${randomText(8)}`;
}
