// Models as callers see them: a tenant's aliases, prices and providers (with their keys, never
// shown). Reads are a viewer's; every change is an operator's.
import type { Caller } from "../callers/index.js";
import type { AliasView, Price, PriceView, ProviderChange, ProviderView } from "../models/index.js";
import type { ServiceCore } from "./core.js";

export class ModelsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async aliases(caller: Caller): Promise<AliasView[]> {
    return this.#core.deps.models.aliases(this.#core.check(caller, "models.aliases"));
  }

  /** Maps `alias` to `target` (`provider:model`) with request options, checked as the manifest's are. */
  async setAlias(caller: Caller, alias: string, target: string, options: unknown = {}): Promise<AliasView> {
    return this.#core.change(caller, "models.setAlias", alias, (tenant) =>
      this.#core.deps.models.setAlias(tenant, alias, target, options),
    );
  }

  async removeAlias(caller: Caller, alias: string): Promise<void> {
    return this.#core.change(caller, "models.removeAlias", alias, (tenant) =>
      this.#core.deps.models.removeAlias(tenant, alias),
    );
  }

  async prices(caller: Caller): Promise<PriceView[]> {
    return this.#core.deps.models.prices(this.#core.check(caller, "models.prices"));
  }

  async setPrice(caller: Caller, target: string, price: Price): Promise<PriceView> {
    return this.#core.change(caller, "models.setPrice", target, (tenant) =>
      this.#core.deps.models.setPrice(tenant, target, price),
    );
  }

  async removePrice(caller: Caller, target: string): Promise<void> {
    return this.#core.change(caller, "models.removePrice", target, (tenant) =>
      this.#core.deps.models.removePrice(tenant, target),
    );
  }

  async providers(caller: Caller): Promise<ProviderView[]> {
    return this.#core.deps.models.providers(this.#core.check(caller, "models.providers"));
  }

  /** Sets a provider's base URL, key (stored encrypted), timeout and retries. */
  async setProvider(caller: Caller, name: string, change: ProviderChange): Promise<ProviderView> {
    return this.#core.change(caller, "models.setProvider", name, (tenant) =>
      this.#core.deps.models.setProvider(tenant, name, change),
    );
  }

  async removeProvider(caller: Caller, name: string): Promise<void> {
    return this.#core.change(caller, "models.removeProvider", name, (tenant) =>
      this.#core.deps.models.removeProvider(tenant, name),
    );
  }
}
