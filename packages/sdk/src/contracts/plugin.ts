// The `@plugin` class decorator: zero-ceremony metadata for contract classes. It infers the
// plugin ID from the class name and `implements` from the contracts the class inherits or
// mixes in; static fields on the class take precedence over both.
//
// The specification's Python names map to TypeScript's camelCase: plugin_id → pluginId,
// governed_by → governedBy, contract_id → contractId, get_name → getName,
// get_description → getDescription, get_parameters_schema → getParametersSchema,
// surface_type → surfaceType, part_id → partId, to_observability_dict → toObservabilityDict.
// `requires` and `implements` keep their names. Handler methods keep the spec's
// `on_<hook>` (camelCase `on<Hook>` is accepted too).
import { Oz0Error } from "../errors/index.js";
import { ContractBase, type ContractClass, contractClassesOf, MIXED_IN } from "./base.js";

export interface PluginOptions {
  /** `<name>@v<major>`; inferred from the class name when left out. */
  readonly pluginId?: string;
  /** Contract IDs the plugin needs beside it. */
  readonly requires?: readonly string[];
  /** Governance contracts that watch the plugin; informational. */
  readonly governedBy?: readonly string[];
}

/** What `@plugin` settled for a class. */
export interface PluginInfo {
  readonly className: string;
  readonly pluginId: string;
  readonly implements: readonly string[];
  readonly requires: readonly string[];
  readonly governedBy: readonly string[];
}

/** A plugin ID: a snake_case name and a major version. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*@v[0-9]+$/;

const CONTRACT_ID_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const DECORATED: unique symbol = Symbol("oz0.contracts.plugin");

type ClassDecorator = <C extends ContractClass>(target: C, context?: ClassDecoratorContext<C>) => C;

/**
 * Marks a contract class as a plugin. Bare (`@plugin`) or with options
 * (`@plugin({ requires: ["recorder"], governedBy: ["budget"] })`). It is a standard (TC39)
 * decorator; in plain JavaScript call it: `plugin(MyTool)` or `plugin({ … })(MyTool)`.
 */
export function plugin<C extends ContractClass>(target: C, context?: ClassDecoratorContext<C>): C;
export function plugin(options: PluginOptions): ClassDecorator;
export function plugin<C extends ContractClass>(
  targetOrOptions: C | PluginOptions,
  context?: ClassDecoratorContext<C>,
): C | ClassDecorator {
  if (typeof targetOrOptions === "function") return decorate(targetOrOptions, context, {});
  const options = checkOptions(targetOrOptions);
  return <D extends ContractClass>(target: D, ctx?: ClassDecoratorContext<D>) =>
    decorate(target, ctx, options);
}

function decorate<C extends ContractClass>(
  target: C,
  context: ClassDecoratorContext<C> | undefined,
  options: PluginOptions,
): C {
  if (context !== undefined && context.kind !== "class") {
    throw invalid(String(context.name), `@plugin decorates classes, not a ${String(context.kind)}`);
  }
  if (!(target.prototype instanceof ContractBase)) {
    throw invalid(
      target.name || "(anonymous class)",
      "@plugin decorates contract classes: extend ToolContract, GovernanceContract, SurfaceAdapter or another contract",
    );
  }
  // Static fields are set after class decorators run, so a standard decorator reads the
  // class's own `pluginId` and `implements` overrides in an initializer, once they exist.
  if (context === undefined) settle(target, options);
  else
    context.addInitializer(function (this: C) {
      settle(this, options);
    });
  return target;
}

function settle(target: ContractClass, options: PluginOptions): void {
  const info = infer(target, options);
  for (const [key, value] of Object.entries(info)) {
    if (key === "className") continue;
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: false });
  }
  Object.defineProperty(target, DECORATED, { value: true });
}

/**
 * The plugin metadata of a contract class: what `@plugin` set, or for an undecorated class
 * what it would infer.
 */
export function pluginInfo(target: ContractClass): PluginInfo {
  return infer(target, {});
}

/** Whether `@plugin` decorated this very class (not only a parent of it). */
export function isPluginClass(target: unknown): boolean {
  return typeof target === "function" && Object.hasOwn(target, DECORATED);
}

/**
 * The plugin ID a class name gives: snake_case, without a `Tool` or `Plugin` suffix, at
 * version 1.
 * @example inferPluginId("MyHTTPClientPlugin") // "my_http_client@v1"
 */
export function inferPluginId(className: string): string {
  const base = className.replace(/(?<=.)(?:Tool|Plugin)$/, "");
  const snake = base
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `${snake}@v1`;
}

/** The name part of a plugin ID: `date_time@v1` → `date_time`. */
export function pluginIdName(pluginId: string): string {
  const at = pluginId.indexOf("@");
  return at < 0 ? pluginId : pluginId.slice(0, at);
}

/**
 * Contract IDs of every contract a class inherits or mixes in, nearest first: the class's
 * own chain, then the contracts mixed in with `withContracts`, each once.
 */
export function collectContractIds(target: ContractClass): string[] {
  const ids: string[] = [];
  for (const k of contractClassesOf(target)) {
    if (!Object.hasOwn(k as object, "contractId")) continue;
    const id = (k as { contractId: unknown }).contractId;
    if (typeof id === "string" && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

type Constructed<T> = T extends abstract new (...args: never[]) => infer I ? I : never;
type Intersect<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** A class extending every contract given: instances of all of them, with the first's statics. */
export type ComposedContracts<
  First extends ContractClass,
  Rest extends ContractClass[],
> = (abstract new () => Constructed<First> & Intersect<Constructed<Rest[number]>>) & Omit<First, "prototype">;

/**
 * TypeScript classes extend one class, so a plugin implementing several contracts extends
 * a composite: `class SmartMemoryTool extends withContracts(ToolContract, MemoryContract)`.
 * The composite extends the first contract and copies the others' methods; `@plugin` then
 * collects `['tool', 'memory']` and `instanceof` holds for each contract. Mixed-in
 * contracts bring methods, not constructor state.
 */
export function withContracts<First extends ContractClass, Rest extends ContractClass[]>(
  first: First,
  ...rest: Rest
): ComposedContracts<First, Rest> {
  const Base = first as unknown as abstract new () => ContractBase;
  abstract class Composite extends Base {}
  for (const mixin of rest) {
    for (const k of contractClassesOf(mixin)) {
      const proto = (k as { prototype?: object }).prototype;
      if (proto === undefined) continue;
      for (const key of Reflect.ownKeys(proto)) {
        if (key === "constructor" || key in Composite.prototype) continue;
        Object.defineProperty(Composite.prototype, key, Reflect.getOwnPropertyDescriptor(proto, key)!);
      }
    }
  }
  Object.defineProperty(Composite, MIXED_IN, { value: Object.freeze([...rest]) });
  Object.defineProperty(Composite, "name", { value: [first, ...rest].map((k) => k.name).join("_") });
  return Composite as unknown as ComposedContracts<First, Rest>;
}

function infer(target: ContractClass, options: PluginOptions): PluginInfo {
  const className = target.name;
  const own = (key: string): unknown =>
    Object.hasOwn(target, key) ? (target as unknown as Record<string, unknown>)[key] : undefined;
  const pluginId =
    own("pluginId") ?? options.pluginId ?? (className === "" ? undefined : inferPluginId(className));
  if (typeof pluginId !== "string" || !PLUGIN_ID_PATTERN.test(pluginId)) {
    const shown = pluginId === undefined ? "none" : `'${String(pluginId)}'`;
    throw invalid(
      className || "(anonymous class)",
      `its plugin ID is ${shown}; a plugin ID is a snake_case name and a major version, such as date_time@v1. Name the class, or set pluginId`,
    );
  }
  const implemented = own("implements") ?? collectContractIds(target);
  return Object.freeze({
    className,
    pluginId,
    implements: contractIds(className, "implements", implemented),
    requires: contractIds(className, "requires", own("requires") ?? options.requires ?? []),
    governedBy: contractIds(className, "governedBy", own("governedBy") ?? options.governedBy ?? []),
  });
}

function checkOptions(options: unknown): PluginOptions {
  if (typeof options !== "object" || options === null) {
    throw invalid(
      "@plugin",
      "its argument must be a class or an options object ({ pluginId, requires, governedBy })",
    );
  }
  const known = new Set(["pluginId", "requires", "governedBy"]);
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw invalid("@plugin", `it takes pluginId, requires and governedBy, not ${unknown.join(", ")}`);
  }
  return options as PluginOptions;
}

function contractIds(className: string, field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || value.some((id) => typeof id !== "string" || !CONTRACT_ID_PATTERN.test(id))) {
    throw invalid(
      className,
      `${field} must be a list of contract IDs in snake_case, such as ["tool", "memory"]`,
    );
  }
  return Object.freeze([...new Set(value as string[])]);
}

function invalid(where: string, problem: string): Oz0Error {
  return new Oz0Error("INVALID_PLUGIN", `${where}: ${problem}.`, {
    data: { plugin: where, detail: problem },
  });
}
