// Canonical JSON and the hashes an approval is bound by. Two calls are the same call for an
// approval only when their canonical text is the same, byte for byte: keys sorted at every
// depth, no whitespace, so `{"b":1,"a":2}` and `{"a":2,"b":1}` hash alike and nothing else does.
import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth. Values JSON leaves out (`undefined`, functions)
 * are left out here too, as `JSON.stringify` would.
 * @example canonicalJson({ b: [2, { d: 1, c: 0 }], a: 1 }) // '{"a":1,"b":[2,{"c":0,"d":1}]}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === "function") return sortKeys(json.call(value));
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The hash of a call's arguments, by which an approval that keeps them only redacted knows them again. */
export function argsHash(args: unknown): string {
  return sha256(canonicalJson(args));
}

/** The hash of a function's definition as a model is offered it: its description and input schema. */
export function definitionHash(fn: { readonly description: string; readonly inputSchema: unknown }): string {
  return sha256(canonicalJson({ description: fn.description, inputSchema: fn.inputSchema }));
}

/** Everything one approval approves; change any field and it is another call. */
export interface ApprovalSubject {
  readonly tenant: string;
  readonly job: string;
  readonly callId: string;
  /** The job's agent by address. */
  readonly agent: string;
  /** The function by address (`oz.<function>` for a built-in). */
  readonly address: string;
  readonly args: unknown;
  /** `definitionHash` of the function. */
  readonly definition: string;
}

/** The hash an approval stores and a call must match to run under it. */
export function approvalBinding(subject: ApprovalSubject): string {
  return sha256(
    canonicalJson({
      tenant: subject.tenant,
      job: subject.job,
      callId: subject.callId,
      agent: subject.agent,
      address: subject.address,
      args: canonicalJson(subject.args),
      definition: subject.definition,
    }),
  );
}
