// The hook table of one tenant: every handler its plugins register, by hook point, in the
// order they run. Built once per job claim (and cached per plugin load and config), so a hook
// point costs a map lookup and a walk over a ready list, never a sort or an allocation.
import type { HookName, HookPayload, LifecycleContext } from "@oz0/sdk";
import { buildHookHandlers, LIFECYCLE_HOOKS, type RecordingHost, type Registration } from "@oz0/sdk/internal";

/** The hook each lifecycle spec runs on, by registration kind. */
const LIFECYCLE: Readonly<Record<string, HookName>> = LIFECYCLE_HOOKS;

/** Registration kinds whose plugins the bus loads: a manifest declares them under `capabilities:`. */
export const HOOK_REGISTRATION_KINDS: readonly string[] = ["hook", ...Object.keys(LIFECYCLE)];

export type HandlerFn = (payload: never) => unknown;

/** One handler on one hook point. */
export interface HookEntry {
  readonly hook: HookName;
  /** The plugin that registered it. */
  readonly plugin: string;
  /** Its registration: the hook spec, lifecycle spec or contract (`budget_governance`). */
  readonly handler: string;
  readonly order: number;
  /** A required handler's error stops the action; an optional one's is recorded and the chain goes on. */
  readonly required: boolean;
  readonly run: (payload: HookPayload<HookName>) => unknown;
}

/** A plugin as the bus sees it: its name, what its code registered, and its config in the tenant. */
export interface HookPlugin {
  readonly name: string;
  readonly code: RecordingHost | undefined;
  readonly config: Readonly<Record<string, unknown>>;
}

/** A registration whose handlers could not be built; the job records it as a hook_error. */
export interface BrokenRegistration {
  readonly plugin: string;
  readonly handler: string;
  readonly error: string;
}

const NONE: readonly HookEntry[] = Object.freeze([]);

export class HookTable {
  static readonly EMPTY = new HookTable(new Map(), []);

  readonly #byHook: ReadonlyMap<HookName, readonly HookEntry[]>;
  /** Registrations whose `build` failed: none of their handlers run. */
  readonly broken: readonly BrokenRegistration[];

  constructor(byHook: ReadonlyMap<HookName, readonly HookEntry[]>, broken: readonly BrokenRegistration[]) {
    this.#byHook = byHook;
    this.broken = broken;
  }

  /** The handlers of `hook` in the order they run; the same frozen list every time. */
  handlers(hook: HookName): readonly HookEntry[] {
    return this.#byHook.get(hook) ?? NONE;
  }

  has(hook: HookName): boolean {
    return this.#byHook.has(hook);
  }

  /** How many handlers the table holds over all hooks. */
  get size(): number {
    let count = 0;
    for (const list of this.#byHook.values()) count += list.length;
    return count;
  }
}

/**
 * Builds the table from plugins in the order given (callers pass them by name): lifecycle specs
 * by `order`, hook specs and contracts at order 0, ties in plugin then registration order. A
 * disabled registration is left out unless it is required ("core: runs even when the plugin is
 * not enabled").
 */
export async function buildHookTable(plugins: readonly HookPlugin[]): Promise<HookTable> {
  const entries: HookEntry[] = [];
  const broken: BrokenRegistration[] = [];
  for (const plugin of plugins) {
    for (const registration of plugin.code?.registrations() ?? []) {
      if (registration.kind === "hook") {
        if (!registration.enabled) continue;
        try {
          const handlers = await builtHandlers(registration as Registration<"hook">, plugin.config);
          for (const [hook, run] of Object.entries(handlers)) {
            entries.push({
              hook: hook as HookName,
              plugin: plugin.name,
              handler: registration.name,
              order: 0,
              required: false,
              run: run as HookEntry["run"],
            });
          }
        } catch (error) {
          broken.push({
            plugin: plugin.name,
            handler: registration.name,
            error: `its build(ctx) failed, so none of its handlers run: ${error instanceof Error ? error.message : String(error)}`,
          });
        }
        continue;
      }
      const hook = LIFECYCLE[registration.kind];
      if (hook === undefined) continue;
      const spec = registration.spec as {
        order?: number;
        required?: boolean;
        run(payload: HookPayload<HookName>, ctx: LifecycleContext): unknown;
      };
      const required = spec.required === true;
      if (!registration.enabled && !required) continue;
      // The plugin's config reaches its lifecycle specs as it reaches its hook specs' build.
      const ctx: LifecycleContext = Object.freeze({ pluginId: plugin.name, config: plugin.config });
      entries.push({
        hook,
        plugin: plugin.name,
        handler: registration.name,
        order: spec.order ?? 0,
        required,
        run: (payload) => spec.run(payload, ctx),
      });
    }
  }
  // Array.prototype.sort is stable: equal orders keep plugin and registration order.
  entries.sort((a, b) => a.order - b.order);
  const byHook = new Map<HookName, HookEntry[]>();
  for (const entry of entries) {
    const list = byHook.get(entry.hook);
    if (list === undefined) byHook.set(entry.hook, [entry]);
    else list.push(entry);
  }
  for (const list of byHook.values()) Object.freeze(list);
  return new HookTable(byHook, broken);
}

// Built handlers are kept per registration and config, so a contract's state (a rate limiter's
// window) lasts as long as the plugin stays loaded with the same config.
const BUILT = new WeakMap<object, Map<string, Promise<Readonly<Record<string, HandlerFn>>>>>();

function builtHandlers(
  registration: Registration<"hook">,
  config: Readonly<Record<string, unknown>>,
): Promise<Readonly<Record<string, HandlerFn>>> {
  let byConfig = BUILT.get(registration.spec);
  if (byConfig === undefined) {
    byConfig = new Map();
    BUILT.set(registration.spec, byConfig);
  }
  const key = JSON.stringify(config);
  let built = byConfig.get(key);
  if (built === undefined) {
    const spec = registration.spec;
    built = buildHookHandlers(spec, { pluginId: spec.pluginId, config }) as Promise<
      Readonly<Record<string, HandlerFn>>
    >;
    byConfig.set(key, built);
    const kept = byConfig;
    // A build that failed is tried again at the next job.
    built.catch(() => kept.delete(key));
  }
  return built;
}
