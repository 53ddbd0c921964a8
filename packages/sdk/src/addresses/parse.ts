// Reads addresses, patterns and bare references. One reader serves every form so that each
// malformed input gets the same checks in the same order, whatever the caller expected.
import { assertName, BUILTIN_TOOL_ID, type NameKind, nameProblem } from "../names/index.js";
import { withArticle } from "../text/index.js";
import { invalidAddress } from "./forms.js";
import type {
  Address,
  AddressForm,
  AddressPattern,
  BuiltinAddress,
  BuiltinWildcard,
  FunctionAddress,
  PartAddress,
  PartKind,
  PatternOf,
  PluginWildcard,
  ToolAddress,
  ToolWildcard,
} from "./types.js";

/** What each expected form parses to. */
export interface AddressOf {
  function: FunctionAddress | BuiltinAddress;
  tool: ToolAddress;
  agent: PartAddress<"agent">;
  flow: PartAddress<"flow">;
  skill: PartAddress<"skill">;
}

/** `github/oz0_github.get_pull_request`, `github/oz0_github.*`, `github/*`, `oz.delegate`, `oz.*`. */
export type FunctionPattern =
  | FunctionAddress
  | BuiltinAddress
  | ToolWildcard
  | PluginWildcard
  | BuiltinWildcard;
/** `web/research` or `web/*`. */
export type SkillPattern = PartAddress<"skill"> | PluginWildcard;

/** What each kind of pattern parses to. */
export interface PatternFor {
  function: FunctionPattern;
  skill: SkillPattern;
}

/** A reference read inside a plugin; `bare` is true when the text named no plugin and got the current one. */
export interface Resolved<T> {
  readonly address: T;
  readonly bare: boolean;
}

interface Reading {
  readonly input: string;
  readonly expect: AddressForm;
  readonly pattern: boolean;
  /** The plugin a bare name belongs to; undefined where every reference must name its plugin. */
  readonly plugin: string | undefined;
}

/**
 * Reads a function address; a built-in (`oz.delegate`) reads as `{ kind: "builtin" }`.
 * @example parseFunctionAddress("github/oz0_github.get_pull_request")
 * // { kind: "function", plugin: "github", tool: "oz0_github", function: "get_pull_request" }
 */
export function parseFunctionAddress(text: string): FunctionAddress | BuiltinAddress {
  return read({ input: text, expect: "function", pattern: false, plugin: undefined })
    .address as AddressOf["function"];
}

/** Reads a whole tool's address, such as `github/oz0_github`. */
export function parseToolAddress(text: string): ToolAddress {
  return read({ input: text, expect: "tool", pattern: false, plugin: undefined }).address as ToolAddress;
}

/** Reads an agent's, flow's or skill's address, such as `pr-reviewer/pr-reviewer`. */
export function parsePartAddress<K extends PartKind>(text: string, kind: K): PartAddress<K> {
  return read({ input: text, expect: kind, pattern: false, plugin: undefined }).address as PartAddress<K>;
}

/** Reads an address of the `expect`ed form. */
export function parseAddress<F extends AddressForm>(text: string, expect: F): AddressOf[F] {
  return read({ input: text, expect, pattern: false, plugin: undefined }).address as AddressOf[F];
}

/**
 * Reads a pattern over functions (tool policy rules: `github/oz0_github.*`, `github/*`, or an
 * exact function) or over skills (`web/*` or an exact skill).
 */
export function parsePattern<O extends PatternOf = "function">(text: string, of?: O): PatternFor[O] {
  const expect = of ?? "function";
  return read({ input: text, expect, pattern: true, plugin: undefined }).address as PatternFor[O];
}

/**
 * Reads a reference written inside plugin `plugin`: a bare name means that plugin's part.
 * @example resolveReference("review", { plugin: "acme", expect: "agent" })
 * // { address: { kind: "agent", plugin: "acme", name: "review" }, bare: true }
 */
export function resolveReference<F extends AddressForm>(
  text: string,
  options: { plugin: string; expect: F },
): Resolved<AddressOf[F]> {
  assertName("plugin", options.plugin);
  return read({ input: text, expect: options.expect, pattern: false, plugin: options.plugin }) as Resolved<
    AddressOf[F]
  >;
}

/** Reads a pattern written inside plugin `plugin` (an agent's `skills:`, a `uses:` grant). */
export function resolvePattern<O extends PatternOf>(
  text: string,
  options: { plugin: string; of: O },
): Resolved<PatternFor[O]> {
  assertName("plugin", options.plugin);
  return read({ input: text, expect: options.of, pattern: true, plugin: options.plugin }) as Resolved<
    PatternFor[O]
  >;
}

function read(reading: Reading): Resolved<Address | AddressPattern> {
  const { input, expect, pattern } = reading;
  const fail = (problem: string) =>
    invalidAddress(
      input,
      pattern ? `${expect as PatternOf} pattern` : expect,
      problem,
      reading.plugin !== undefined,
    );

  checkCharacters(input, fail);
  if (!pattern && input.includes("*")) {
    throw fail(`'*' makes a pattern, and ${withArticle(expect)} address names exactly one ${expect}`);
  }
  const slashes = input.split("/").length - 1;
  if (slashes > 1) {
    throw fail(
      `it has ${slashes} '/', but names hold no '/', so an address has exactly one, after the plugin`,
    );
  }

  let plugin: string | undefined;
  let rest = input;
  if (slashes === 1) {
    const at = input.indexOf("/");
    plugin = input.slice(0, at);
    rest = input.slice(at + 1);
    if (plugin === "") throw fail("the plugin before the '/' is empty");
    if (rest === "") throw fail(`nothing follows the '/'; name the ${expect} after it`);
    if (plugin.includes("*")) {
      throw fail("'*' cannot stand for a plugin; a pattern names its plugin before the '/'");
    }
    checkName("plugin", plugin, fail);
  }

  if (expect === "function" && plugin === undefined && rest.split(".")[0] === BUILTIN_TOOL_ID) {
    return { address: readBuiltin(rest, pattern, fail), bare: false };
  }
  const bare = plugin === undefined;
  if (plugin === undefined) {
    if (reading.plugin === undefined) {
      throw fail(`it has no '/'; an address names its plugin first, then a '/' and the ${expect}`);
    }
    if (rest === "*") throw fail("a bare '*' names no plugin; write the plugin, a '/' and then '*'");
    plugin = reading.plugin;
  }
  return { address: readPart(rest, plugin, expect, pattern, fail), bare };
}

type Fail = (problem: string) => Error;

function readPart(
  rest: string,
  plugin: string,
  expect: AddressForm,
  pattern: boolean,
  fail: Fail,
): Address | AddressPattern {
  if (pattern && rest === "*") return { kind: "plugin-wildcard", plugin, of: expect as PatternOf };
  if (expect === "function") {
    if (!rest.includes(".") && rest.includes("*")) {
      throw fail(`'*' stands alone after the '/', as ${plugin}/* for every function of ${plugin}`);
    }
    const { tool, fn } = splitFunction(rest, pattern, fail);
    if (tool === BUILTIN_TOOL_ID) throw fail(builtinOwnedByNoPlugin());
    checkName("tool", tool, fail);
    if (fn === "*") return { kind: "tool-wildcard", plugin, tool };
    checkName("function", fn, fail);
    return { kind: "function", plugin, tool, function: fn };
  }
  if (rest.includes("*")) {
    throw fail(`'*' cannot stand for part of a name; write ${plugin}/* for every ${expect} of ${plugin}`);
  }
  if (expect === "tool") {
    if (rest.includes(".")) {
      throw fail(
        `'${rest}' holds a '.', which a tool ID never does; a whole tool is named without a function`,
      );
    }
    if (rest === BUILTIN_TOOL_ID) throw fail(builtinOwnedByNoPlugin());
    checkName("tool", rest, fail);
    return { kind: "tool", plugin, tool: rest };
  }
  checkName(expect, rest, fail);
  return { kind: expect, plugin, name: rest };
}

function readBuiltin(rest: string, pattern: boolean, fail: Fail): BuiltinAddress | BuiltinWildcard {
  const { fn } = splitFunction(rest, pattern, fail);
  if (fn === "*") return { kind: "builtin-wildcard", tool: BUILTIN_TOOL_ID };
  checkName("function", fn, fail);
  return { kind: "builtin", tool: BUILTIN_TOOL_ID, function: fn };
}

/** Splits `<tool>.<function>` at its one '.', refusing a '*' anywhere but the whole function name. */
function splitFunction(rest: string, pattern: boolean, fail: Fail): { tool: string; fn: string } {
  const dots = rest.split(".").length - 1;
  if (dots === 0)
    throw fail(`it names no function: '${rest}' has no '.' between the tool ID and the function name`);
  if (dots > 1) {
    throw fail(
      `'${rest}' has ${dots} '.', but tool IDs and function names hold none, so exactly one '.' separates them`,
    );
  }
  const at = rest.indexOf(".");
  const tool = rest.slice(0, at);
  const fn = rest.slice(at + 1);
  if (tool === "") throw fail("the tool ID before the '.' is empty");
  if (fn === "") throw fail("the function name after the '.' is empty");
  if (tool.includes("*")) {
    throw fail("'*' cannot stand for a tool ID or part of one; write <plugin>/* for every tool of a plugin");
  }
  if (fn.includes("*") && (fn !== "*" || !pattern)) {
    throw fail(`'*' cannot stand for part of a function name; write ${tool}.* for every function of ${tool}`);
  }
  return { tool, fn };
}

function builtinOwnedByNoPlugin(): string {
  return `'${BUILTIN_TOOL_ID}' is the tool of oz0's built-in functions, which belongs to no plugin; name a built-in without one, as ${BUILTIN_TOOL_ID}.delegate`;
}

function checkName(kind: NameKind, name: string, fail: Fail): void {
  const problem = nameProblem(kind, name);
  if (problem !== undefined) throw fail(problem);
}

// Whitespace and look-alike letters are refused outright: an address is compared byte for byte,
// so `gіthub` (Cyrillic і) must never read as github, and a pasted trailing newline is a mistake.
function checkCharacters(input: string, fail: Fail): void {
  if (input === "") throw fail("it is empty");
  if (/\s/.test(input)) throw fail("it holds whitespace, which no name does");
  for (const char of input) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code > 0x7e) {
      const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
      const shown = code < 0x20 || code === 0x7f ? hex : `'${char}' (${hex})`;
      throw fail(
        `it holds ${shown}, and names are printable ASCII only, so no look-alike passes for a letter`,
      );
    }
  }
}
