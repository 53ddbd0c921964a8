// An approval is bound to one call by canonical JSON and hashes: the same call hashes alike
// however its keys are ordered, and any other call hashes otherwise.
import { describe, expect, it } from "vitest";
import {
  type ApprovalSubject,
  approvalBinding,
  canonicalJson,
  definitionHash,
} from "../../src/policy/index.js";

describe("canonical JSON", () => {
  it("sorts object keys at every depth and keeps arrays in order", () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 0 }], a: 1 })).toBe('{"a":1,"b":[2,{"c":0,"d":1}]}');
    expect(canonicalJson({ z: undefined, y: null })).toBe('{"y":null}');
    expect(canonicalJson(undefined)).toBe("null");
  });
});

describe("an approval's binding", () => {
  const subject: ApprovalSubject = {
    tenant: "default",
    job: "keeper-1",
    callId: "1.1",
    agent: "vault/keeper",
    address: "vault/vault.write",
    args: { key: "door", value: "open" },
    definition: definitionHash({ description: "Write.", inputSchema: { type: "object" } }),
  };

  it("is the same for the same call, whatever the order of its arguments' keys", () => {
    expect(approvalBinding({ ...subject, args: { value: "open", key: "door" } })).toBe(
      approvalBinding(subject),
    );
  });

  it("differs when the tenant, job, call, agent, function, arguments or definition differ", () => {
    const base = approvalBinding(subject);
    const others: Partial<ApprovalSubject>[] = [
      { tenant: "acme" },
      { job: "keeper-2" },
      { callId: "2.1" },
      { agent: "vault/twice" },
      { address: "vault/vault.read" },
      { args: { key: "door", value: "closed" } },
      { args: { key: "door", value: "open", also: true } },
      { definition: definitionHash({ description: "Write anything.", inputSchema: { type: "object" } }) },
    ];
    for (const other of others) expect(approvalBinding({ ...subject, ...other })).not.toBe(base);
  });

  it("hashes a definition by its description and input schema", () => {
    const one = definitionHash({ description: "Write.", inputSchema: { type: "object", required: ["a"] } });
    expect(definitionHash({ inputSchema: { required: ["a"], type: "object" }, description: "Write." })).toBe(
      one,
    );
    expect(definitionHash({ description: "Write.", inputSchema: { type: "object" } })).not.toBe(one);
  });
});
