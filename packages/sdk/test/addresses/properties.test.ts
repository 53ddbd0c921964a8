// Properties over generated input: valid addresses survive a round trip, and no string makes a
// parser throw anything but INVALID_ADDRESS.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Address,
  type AddressPattern,
  bareName,
  formatAddress,
  parseAddress,
  parsePattern,
  patternCovers,
  patternSpecificity,
  resolveReference,
} from "../../src/addresses/index.js";
import { isOz0Error } from "../../src/errors/index.js";
import { BUILTIN_TOOL_ID, isValidName, type NameKind } from "../../src/names/index.js";

function name(kind: NameKind, pattern: RegExp): fc.Arbitrary<string> {
  return fc.stringMatching(pattern).filter((text) => isValidName(kind, text) && text !== BUILTIN_TOOL_ID);
}

const slug = (kind: NameKind) => name(kind, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const tool = name("tool", /^[a-z][a-z0-9-]*(?:_[a-z0-9-]+)*$/);
const fn = name("function", /^[A-Za-z][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/);
const plugin = slug("plugin");

const address: fc.Arbitrary<Address> = fc.oneof(
  fc.record({ kind: fc.constant("function" as const), plugin, tool, function: fn }),
  fc.record({ kind: fc.constant("tool" as const), plugin, tool }),
  fc.record({ kind: fc.constant("agent" as const), plugin, name: slug("agent") }),
  fc.record({ kind: fc.constant("flow" as const), plugin, name: slug("flow") }),
  fc.record({ kind: fc.constant("skill" as const), plugin, name: slug("skill") }),
  fc.record({ kind: fc.constant("builtin" as const), tool: fc.constant(BUILTIN_TOOL_ID), function: fn }),
);

function parsed(of: Address): Address {
  const form = of.kind === "builtin" ? "function" : of.kind;
  return parseAddress(formatAddress(of), form);
}

// Few names, so that generated patterns and addresses often share a plugin or a tool.
const fewPlugins = fc.constantFrom("github", "gitlab");
const fewTools = fc.constantFrom("oz0_github", "oz0_actions");
const fewFunctions = fc.constantFrom("get_file", "list_runs");
const functionPattern: fc.Arbitrary<AddressPattern> = fc.oneof(
  fc.record({
    kind: fc.constant("function" as const),
    plugin: fewPlugins,
    tool: fewTools,
    function: fewFunctions,
  }),
  fc.record({ kind: fc.constant("tool-wildcard" as const), plugin: fewPlugins, tool: fewTools }),
  fc.record({
    kind: fc.constant("plugin-wildcard" as const),
    plugin: fewPlugins,
    of: fc.constant("function" as const),
  }),
  fc.record({
    kind: fc.constant("builtin" as const),
    tool: fc.constant(BUILTIN_TOOL_ID),
    function: fewFunctions,
  }),
  fc.record({ kind: fc.constant("builtin-wildcard" as const), tool: fc.constant(BUILTIN_TOOL_ID) }),
);
const fewFunctionAddresses: fc.Arbitrary<Address> = fc.oneof(
  fc.record({
    kind: fc.constant("function" as const),
    plugin: fewPlugins,
    tool: fewTools,
    function: fewFunctions,
  }),
  fc.record({ kind: fc.constant("tool" as const), plugin: fewPlugins, tool: fewTools }),
  fc.record({
    kind: fc.constant("builtin" as const),
    tool: fc.constant(BUILTIN_TOOL_ID),
    function: fewFunctions,
  }),
);

// Strings near the address syntax reach the deeper checks; arbitrary code units reach the rest.
const addressLike = fc.string({
  unit: fc.constantFrom(
    "a",
    "z",
    "0",
    "-",
    "_",
    "__",
    ".",
    "/",
    "*",
    "A",
    " ",
    "\n",
    "oz",
    "\u0430",
    "\u00e9",
  ),
  maxLength: 24,
});
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), addressLike);

describe("address properties", () => {
  it("reads every valid address back from its text, and writes the same text", () => {
    fc.assert(
      fc.property(address, (of) => {
        expect(parsed(of)).toEqual(of);
        expect(formatAddress(parsed(of))).toBe(formatAddress(of));
      }),
    );
  });

  it("reads every valid function pattern back from its text", () => {
    fc.assert(
      fc.property(functionPattern, (pattern) => {
        expect(parsePattern(formatAddress(pattern))).toEqual(pattern);
      }),
    );
  });

  it("resolves a bare name inside its own plugin to the address it came from", () => {
    fc.assert(
      fc.property(address, (of) => {
        if (of.kind === "builtin") return;
        const resolved = resolveReference(bareName(of), { plugin: of.plugin, expect: of.kind });
        expect(resolved).toEqual({ address: of, bare: true });
      }),
    );
  });

  it("throws nothing but INVALID_ADDRESS on arbitrary strings, from every parser", () => {
    const readers: ((text: string) => unknown)[] = [
      (text) => parseAddress(text, "function"),
      (text) => parseAddress(text, "tool"),
      (text) => parseAddress(text, "agent"),
      (text) => parseAddress(text, "flow"),
      (text) => parseAddress(text, "skill"),
      (text) => parsePattern(text),
      (text) => parsePattern(text, "skill"),
      (text) => resolveReference(text, { plugin: "acme", expect: "function" }),
      (text) => resolveReference(text, { plugin: "acme", expect: "agent" }),
    ];
    fc.assert(
      fc.property(anyText, (text) => {
        for (const readText of readers) {
          try {
            const result = readText(text);
            expect(result).toBeTypeOf("object");
          } catch (error) {
            if (!isOz0Error(error, "INVALID_ADDRESS")) throw error;
            expect(error.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never lets two different patterns of one specificity both cover an address", () => {
    fc.assert(
      fc.property(functionPattern, functionPattern, fewFunctionAddresses, (a, b, of) => {
        if (patternCovers(a, of) && patternCovers(b, of) && patternSpecificity(a) === patternSpecificity(b)) {
          expect(formatAddress(a)).toBe(formatAddress(b));
        }
      }),
      { numRuns: 500 },
    );
  });
});
