// Remote agents as callers see them: the tenant's secrets their runtimes send (an outside A2A
// agent's `harness.key` names one), set from stdin and listed by name; values never leave.

import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import { SecretStore, secretKey, TenantSettings } from "../models/index.js";
import type { ServiceCore } from "./core.js";

/** The prefix of a remote agent's secret among the tenant's secrets. */
const PREFIX = "remote.";
const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export class RemoteService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** Sets the tenant's remote-agent secret `name` (encrypted, and redacted from every job's history). */
  async setSecret(caller: Caller, name: string, value: string): Promise<{ readonly name: string }> {
    return this.#core.change(caller, "remote.setSecret", name, async (tenant) => {
      if (!SECRET_NAME.test(name)) {
        throw new Oz0Error(
          "INVALID_INPUT",
          `'${name}' is not a secret name: letters, digits, '.', '_' and '-', at most 64, as an agent's harness.key writes it`,
          { data: { issues: [{ path: "name", message: "a secret name" }] } },
        );
      }
      if (value === "") {
        throw new Oz0Error("INVALID_INPUT", "the secret's value is empty", {
          data: { issues: [{ path: "value", message: "empty" }] },
        });
      }
      await this.#secrets().set(tenant, `${PREFIX}${name}`, value);
      return { name };
    });
  }

  /** The names of the tenant's remote-agent secrets. */
  async secrets(caller: Caller): Promise<string[]> {
    const tenant = this.#core.check(caller, "remote.secrets");
    const { store } = this.#core.deps;
    const rows = await new TenantSettings(store.db, store.clockSql).list(tenant, secretKey(PREFIX));
    return rows.map(([name]) => name);
  }

  #secrets(): SecretStore {
    const { store, home } = this.#core.deps;
    return new SecretStore({ settings: new TenantSettings(store.db, store.clockSql), home });
  }
}
