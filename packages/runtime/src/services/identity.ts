// Tenants, users, members and API keys as callers see them: every operation is an admin's
// (tenants and users an admin's of the default tenant, which the identity module checks).
// Identity records each of its changes in the audit log inside the transaction that makes it,
// so these go through the role check only, not the change wrapper: one row per change.
import type { Caller } from "../callers/index.js";
import type {
  ApiKeyRequest,
  ApiKeyView,
  CreatedApiKey,
  MemberChange,
  MemberRequest,
  MemberView,
  TenantView,
  UserView,
} from "../identity/index.js";
import { keyNotFound, memberNotFound, withinScope } from "../identity/index.js";
import { type ServiceCore, scoped } from "./core.js";

export class IdentityService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async createTenant(
    caller: Caller,
    name: string,
    options: { readonly admin?: string | undefined } = {},
  ): Promise<TenantView> {
    this.#core.check(caller, "identity.createTenant");
    return this.#core.deps.identity.createTenant(caller, name, options);
  }

  async listTenants(caller: Caller): Promise<TenantView[]> {
    this.#core.check(caller, "identity.listTenants");
    return this.#core.deps.identity.listTenants(caller);
  }

  /** Adds a user who signs in with `password`; only its hash is kept. */
  async addUser(caller: Caller, name: string, password: string): Promise<UserView> {
    this.#core.check(caller, "identity.addUser");
    return this.#core.deps.identity.addUser(caller, name, password);
  }

  async listUsers(caller: Caller): Promise<UserView[]> {
    this.#core.check(caller, "identity.listUsers");
    return this.#core.deps.identity.listUsers(caller);
  }

  async removeUser(caller: Caller, name: string): Promise<UserView> {
    this.#core.check(caller, "identity.removeUser");
    return this.#core.deps.identity.removeUser(caller, name);
  }

  /** Makes a user a member of the caller's tenant, or changes a member's role and agents. */
  async addMember(caller: Caller, request: MemberRequest): Promise<MemberChange> {
    this.#core.check(caller, "identity.addMember");
    return this.#core.deps.identity.addMember(caller, request);
  }

  async listMembers(caller: Caller): Promise<MemberView[]> {
    this.#core.check(caller, "identity.listMembers");
    const members = await this.#core.deps.identity.listMembers(caller);
    // A member's agents may name agents outside a scoped caller's: it sees only those within its own.
    return scoped(caller) ? members.filter((member) => withinScope(caller.agents, member.agents)) : members;
  }

  async removeMember(caller: Caller, user: string): Promise<MemberView> {
    this.#core.check(caller, "identity.removeMember");
    // One whose agents reach past a scoped caller's is not its to remove: answered as a missing one.
    if (scoped(caller)) {
      const member = (await this.#core.deps.identity.listMembers(caller)).find((one) => one.user === user);
      if (member !== undefined && !withinScope(caller.agents, member.agents)) {
        throw memberNotFound(user, caller.tenant);
      }
    }
    return this.#core.deps.identity.removeMember(caller, user);
  }

  /** Makes an API key; the whole key is in this answer and nowhere else, ever. */
  async createKey(caller: Caller, request: ApiKeyRequest): Promise<CreatedApiKey> {
    this.#core.check(caller, "identity.createKey");
    return this.#core.deps.identity.createKey(caller, request);
  }

  /** The tenant's keys, live and past; never a secret or its hash. */
  async listKeys(caller: Caller): Promise<ApiKeyView[]> {
    this.#core.check(caller, "identity.listKeys");
    const keys = await this.#core.deps.identity.listKeys(caller);
    return scoped(caller) ? keys.filter((key) => withinScope(caller.agents, key.agents)) : keys;
  }

  async revokeKey(caller: Caller, id: string): Promise<ApiKeyView> {
    this.#core.check(caller, "identity.revokeKey");
    if (scoped(caller)) {
      const key = (await this.#core.deps.identity.listKeys(caller)).find((one) => one.id === id);
      if (key !== undefined && !withinScope(caller.agents, key.agents)) {
        throw keyNotFound(id, caller.tenant);
      }
    }
    return this.#core.deps.identity.revokeKey(caller, id);
  }
}
