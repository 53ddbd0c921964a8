// The owner check's refusal, in the spec's words for every kind of part.
import { describe, expect, it } from "vitest";
import {
  notOwnedMessage,
  parseFunctionAddress,
  parsePartAddress,
  parseToolAddress,
} from "../../src/addresses/index.js";

describe("notOwnedMessage", () => {
  it("words an agent of another plugin exactly as the spec does", () => {
    expect(
      notOwnedMessage({ address: parsePartAddress("github/triage", "agent"), owner: "support-triage" }),
    ).toBe("github/triage is not an agent of github: triage is support-triage's");
  });

  it("words a flow, a skill and a whole tool the same way", () => {
    expect(notOwnedMessage({ address: parsePartAddress("github/release", "flow"), owner: "acme" })).toBe(
      "github/release is not a flow of github: release is acme's",
    );
    expect(notOwnedMessage({ address: parsePartAddress("web/research", "skill"), owner: "news" })).toBe(
      "web/research is not a skill of web: research is news's",
    );
    expect(notOwnedMessage({ address: parseToolAddress("github/tickets"), owner: "support-triage" })).toBe(
      "github/tickets is not a tool of github: tickets is support-triage's",
    );
  });

  it("names a function by its tool and function name", () => {
    const address = parseFunctionAddress("github/tickets.lookup");
    if (address.kind !== "function") throw new Error("expected a plugin's function");
    expect(notOwnedMessage({ address, owner: "support-triage" })).toBe(
      "github/tickets.lookup is not a function of github: tickets.lookup is support-triage's",
    );
  });
});
