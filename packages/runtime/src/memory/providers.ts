// Builds the memory providers a plugin registers with `addMemory`, for one tenant: each gets a
// MemoryContext whose db is the plugin's own part of oz0's store and whose config is the one the
// plugin runs with in the tenant. A provider is built once per tenant, loaded plugin and config,
// so an edited plugin (loaded afresh) or a changed config gets a fresh one.

import type { MemoryEntry, MemoryEntryInput, MemoryProvider, PluginConfig, Summarizer } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import { callScope } from "../scope/index.js";
import type { Store } from "../store/index.js";
import { StoreMemoryDatabase } from "./database.js";

const PROVIDER_METHODS = ["store", "get", "search"] as const;

export class MemoryProviders {
  readonly #store: Store;
  readonly #built = new WeakMap<LoadedPlugin, Map<string, Promise<MemoryProvider>>>();

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * The memory provider `name` of `plugin`, or its only one when `name` is left out, built for
   * `tenant`. Throws NOT_FOUND for a name it does not register, INVALID_INPUT when a name is
   * needed to choose, INVALID_PLUGIN when its build returns no provider.
   */
  provider(
    tenant: string,
    plugin: LoadedPlugin,
    name?: string,
    config: PluginConfig = {},
  ): Promise<MemoryProvider> {
    const spec = chooseSpec(plugin, name);
    let built = this.#built.get(plugin);
    if (built === undefined) {
      built = new Map();
      this.#built.set(plugin, built);
    }
    // A provider is built again when the operator's config changes.
    const key = `${tenant}\0${spec.name}\0${JSON.stringify(config)}`;
    let provider = built.get(key);
    if (provider === undefined) {
      provider = this.#build(tenant, plugin.manifest.name, spec, config);
      built.set(key, provider);
      // A failed build is not kept: the next call tries again.
      const cache = built;
      provider.catch(() => cache.delete(key));
    }
    return provider;
  }

  async #build(
    tenant: string,
    plugin: string,
    spec: ReturnType<typeof chooseSpec>,
    config: PluginConfig,
  ): Promise<MemoryProvider> {
    const db = new StoreMemoryDatabase(this.#store, { tenant, plugin });
    const provider: unknown = await spec.build({
      pluginId: plugin,
      config,
      db,
      summarizer: jobSummarizer,
    });
    const missing = PROVIDER_METHODS.filter(
      (method) => typeof (provider as Record<string, unknown> | undefined)?.[method] !== "function",
    );
    if (missing.length > 0) {
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `memory provider '${spec.name}' of plugin '${plugin}': build(ctx) must return a provider with store, get and search; it has no ${missing.join(", ")}.`,
        { data: { plugin, detail: "memory build did not return a provider" } },
      );
    }
    return guarded(provider as MemoryProvider, `${plugin}/${spec.name}`);
  }
}

/**
 * The provider with its stores passing the job's memory hooks: pre_memory_store may rewrite the
 * entry or refuse it (the store throws the refusal, which fails the tool's call), and
 * post_memory_store hears of the entry stored. A store outside a job's call passes none.
 */
function guarded(provider: MemoryProvider, address: string): MemoryProvider {
  const store = async (entry: MemoryEntryInput): Promise<MemoryEntry> => {
    const scope = callScope();
    const bus = scope?.bus;
    if (bus === undefined || (!bus.has("pre_memory_store") && !bus.has("post_memory_store"))) {
      return provider.store(entry);
    }
    const call = { provider: address, callId: scope!.callId };
    let next = entry;
    if (bus.has("pre_memory_store")) {
      const outcome = await bus.fire("pre_memory_store", { ...call, entry });
      if (!outcome.ok) throw outcome.error;
      if (outcome.changed) next = memoryEntryOf((outcome.payload as { entry: unknown }).entry, address);
    }
    const stored = await provider.store(next);
    if (bus.has("post_memory_store")) await bus.fire("post_memory_store", { ...call, entry: stored });
    return stored;
  };
  // Every other member is the provider's own, called on the provider (a class's private fields work).
  return new Proxy(provider, {
    get(target, property) {
      if (property === "store") return store;
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** An entry a pre_memory_store handler returned, checked: text content, an optional key and metadata. */
function memoryEntryOf(value: unknown, address: string): MemoryEntryInput {
  const entry = value as Partial<MemoryEntryInput> | null;
  if (
    typeof entry?.content !== "string" ||
    (entry.key !== undefined && typeof entry.key !== "string") ||
    (entry.metadata !== undefined && (typeof entry.metadata !== "object" || entry.metadata === null))
  ) {
    throw new Oz0Error(
      "HOOK_FAILED",
      `pre_memory_store: a handler changed the entry for ${address} into one that is not { content: string, key?: string, metadata?: object }; the entry was not stored.`,
      { data: { hook: "pre_memory_store" } },
    );
  }
  return {
    content: entry.content,
    ...(entry.key === undefined ? {} : { key: entry.key }),
    ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
  };
}

function chooseSpec(plugin: LoadedPlugin, name: string | undefined) {
  const pluginName = plugin.manifest.name;
  // A provider its plugin disabled is not built, as if it were not registered.
  const registered = (plugin.code?.registrations("memory") ?? []).filter(
    (registration) => registration.enabled,
  );
  const names = registered.map((registration) => registration.name);
  if (name === undefined && registered.length === 1) return registered[0]!.spec;
  if (name === undefined && registered.length > 1) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `plugin ${pluginName} registers the memory providers ${names.join(", ")}; name the one to use, such as memory("${names[0]}").`,
      { data: { issues: [{ path: "name", message: "several memory providers; name one" }] } },
    );
  }
  const found = registered.find((registration) => registration.name === name);
  if (found !== undefined) return found.spec;
  const has = names.length === 0 ? "registers none (host.addMemory)" : `registers ${names.join(", ")}`;
  throw new Oz0Error(
    "NOT_FOUND",
    `plugin ${pluginName} has no memory provider${name === undefined ? "" : ` ${name}`}: it ${has}.`,
    { data: { kind: "memory provider", name: name ?? "" } },
  );
}

/**
 * Summarizes with the model of the job whose call the provider serves: governed by the job's
 * pre_llm_call and post_llm_call, counted in its usage and recorded in its history, so a
 * resumed call gets the recorded summary rather than calling again. Outside a job's call there
 * is no job to govern and record it, so it is refused.
 */
const jobSummarizer: Summarizer = async (text, options) => {
  const summarize = callScope()?.summarize;
  if (summarize === undefined) {
    throw new Oz0Error(
      "INVALID_INPUT",
      "summarizer: a memory provider summarizes only inside a job's function call, where the model call is governed, metered and recorded; this call belongs to no job (oz0 tool call). Run it through an agent, or store the entry whole.",
      { data: { issues: [{ path: "summarizer", message: "called outside a job" }] } },
    );
  }
  if (typeof text !== "string") {
    throw new Oz0Error("INVALID_INPUT", "summarizer: the text to summarize must be a string.", {
      data: { issues: [{ path: "text", message: "must be a string" }] },
    });
  }
  return summarize(text, options);
};
