// Which agent runtimes this oz0 has, by the `runtime:` values that select them: lint, install
// and the start and claim of a job all read this one table, so an agent whose runtime is not in
// it is refused everywhere the same way and never runs on another loop.
import { Oz0Error } from "@oz0/sdk";
import type { AgentRuntime } from "./types.js";

export class RuntimeRegistry {
  readonly #byName = new Map<string, AgentRuntime>();
  readonly #bySelector = new Map<string, AgentRuntime>();
  readonly #default: AgentRuntime;
  /** Runtimes made per name for a prefix (`harness:` makes `harness:<name>`'s), each made once. */
  readonly #families = new Map<
    string,
    { make: (value: string) => AgentRuntime; made: Map<string, AgentRuntime> }
  >();

  /** `fallback` runs an agent without `runtime:`. */
  constructor(fallback: AgentRuntime) {
    this.#default = fallback;
    this.register(fallback);
  }

  /**
   * Adds a runtime; the function returned takes it out again. A name or a `runtime:` value
   * another runtime has already is refused (ALREADY_EXISTS): two loops never share one.
   */
  register(runtime: AgentRuntime): () => void {
    const taken = this.#byName.has(runtime.name)
      ? runtime.name
      : runtime.selects.find((value) => this.#bySelector.has(value));
    if (taken !== undefined) {
      const holder = this.#byName.get(taken) ?? this.#bySelector.get(taken);
      throw new Oz0Error(
        "ALREADY_EXISTS",
        `agent runtime '${runtime.name}' cannot be registered: '${taken}' is runtime '${holder?.name}''s already; pick another name`,
        { data: { kind: "runtime", name: taken } },
      );
    }
    this.#byName.set(runtime.name, runtime);
    for (const value of runtime.selects) this.#bySelector.set(value, runtime);
    return () => {
      if (this.#byName.get(runtime.name) !== runtime || runtime === this.#default) return;
      this.#byName.delete(runtime.name);
      for (const value of runtime.selects) this.#bySelector.delete(value);
    };
  }

  /**
   * Adds a family of runtimes: every `runtime:` value that begins with `prefix` and is not
   * registered on its own selects the runtime `make(value)` returns (made once per value). The
   * function returned takes the family out again.
   */
  registerFamily(prefix: string, make: (value: string) => AgentRuntime): () => void {
    if (this.#families.has(prefix)) {
      throw new Oz0Error("ALREADY_EXISTS", `agent runtimes '${prefix}<name>' are registered already`, {
        data: { kind: "runtime", name: `${prefix}*` },
      });
    }
    const family = { make, made: new Map<string, AgentRuntime>() };
    this.#families.set(prefix, family);
    return () => {
      if (this.#families.get(prefix) === family) this.#families.delete(prefix);
    };
  }

  /** The runtime an agent's `runtime:` selects (left out: the default), or undefined when this oz0 has none. */
  select(value: string | undefined): AgentRuntime | undefined {
    if (value === undefined) return this.#default;
    const own = this.#bySelector.get(value);
    if (own !== undefined) return own;
    for (const [prefix, family] of this.#families) {
      if (!value.startsWith(prefix) || value.length === prefix.length) continue;
      let made = family.made.get(value);
      if (made === undefined) {
        made = family.make(value);
        family.made.set(value, made);
      }
      return made;
    }
    return undefined;
  }

  /** The `runtime:` values that select a runtime, the default's first, as messages list them. */
  values(): string[] {
    const values: string[] = [];
    for (const runtime of this.#byName.values()) {
      const suffix = runtime === this.#default ? " (the default, oz0's own loop)" : "";
      for (const value of runtime.selects) values.push(`${value}${suffix}`);
    }
    for (const prefix of this.#families.keys()) values.push(`${prefix}<name>`);
    return values;
  }

  /** The selecting values alone, without the default's note. */
  selectors(): string[] {
    return [...this.#bySelector.keys(), ...[...this.#families.keys()].map((prefix) => `${prefix}<name>`)];
  }
}
