// Who may do what: tenants, users, their memberships of tenants, API keys, and turning a
// presented key or password into a Caller. Every change checks the caller's role first, and
// lands in the audit log in the transaction that makes it. A failed sign-in tells the one
// signing in nothing about which part was wrong; the reason goes to the audit log instead.
import { randomUUID } from "node:crypto";
import { nameProblem, Oz0Error } from "@oz0/sdk";
import type { Transaction } from "kysely";
import type { Audit } from "../audit/index.js";
import { type Caller, isRole, ROLES, type Role, requireRole } from "../callers/index.js";
import { checkTenantName, lockTenant, requireTenant } from "../catalog/index.js";
import { type Database, DEFAULT_TENANT, type Store } from "../store/index.js";
import {
  checkPassword,
  checkUserName,
  csrfTokenOf,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  NO_KEY_HASH,
  newKey,
  newSessionToken,
  noUserHash,
  passwordMatches,
  readKey,
  readSessionToken,
  secretMatches,
  tokensMatch,
} from "./credentials.js";
import { checkAgentScope, withinScope } from "./scope.js";
import { Throttle, type ThrottleOptions } from "./throttle.js";

export interface IdentityOptions {
  readonly throttle?: ThrottleOptions | undefined;
  /** Runs once a tenant made by `createTenant` exists: the runtime gives it the default plugins. */
  readonly onTenantCreated?: ((tenant: string) => Promise<unknown>) | undefined;
}

export interface TenantView {
  readonly name: string;
  /** Epoch milliseconds, by the database's clock. */
  readonly createdAt: number;
}

export interface UserView {
  readonly name: string;
  readonly createdAt: number;
  readonly createdBy: string;
  /** The tenants the user is a member of, and the role in each. */
  readonly tenants: readonly { readonly tenant: string; readonly role: Role }[];
}

export interface MemberView {
  readonly tenant: string;
  readonly user: string;
  readonly role: Role;
  readonly agents: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly updatedBy: string;
}

export interface MemberChange {
  readonly member: MemberView;
  /** The role and agents before, when the user was a member already. */
  readonly previous: { readonly role: Role; readonly agents: readonly string[] } | null;
}

export interface MemberRequest {
  readonly user: string;
  readonly role: string;
  /** Agent addresses, `tag:<tag>`, or `["*"]` (the default). */
  readonly agents?: readonly string[] | undefined;
}

export type ApiKeyStatus = "active" | "expired" | "revoked";

export interface ApiKeyView {
  readonly id: string;
  readonly tenant: string;
  readonly name: string;
  readonly role: Role;
  readonly agents: readonly string[];
  readonly status: ApiKeyStatus;
  readonly createdAt: number;
  readonly createdBy: string;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  readonly revokedBy: string | null;
}

export interface ApiKeyRequest {
  readonly name: string;
  readonly role: string;
  readonly agents?: readonly string[] | undefined;
  /** How long the key works, in milliseconds; it never expires when left out. */
  readonly expiresInMs?: number | undefined;
}

export interface CreatedApiKey {
  readonly id: string;
  /** The whole key, `oz0k_<id>_<secret>`: returned this once and never stored. */
  readonly key: string;
  readonly view: ApiKeyView;
}

export interface SignIn {
  /** Where the attempt comes from (the client's IP address), for the per-source rate limit. */
  readonly source?: string | undefined;
}

/** What a console session signs in with: a member's password, or an API key. */
export type SessionRequest =
  | { readonly tenant: string; readonly user: string; readonly password: string }
  | { readonly key: string };

export interface StartedSession {
  /** `oz0s_<id>_<secret>`: handed to the browser as an HttpOnly cookie, never stored. */
  readonly token: string;
  /** The token each request that changes something carries beside the cookie. */
  readonly csrf: string;
  readonly caller: Caller;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export interface SessionCheck extends SignIn {
  /**
   * The CSRF token the request carries. Checked when `changes` is true (a POST, PUT, PATCH or
   * DELETE), since a browser sends the cookie with a request another site makes it send.
   */
  readonly csrf?: string | undefined;
  readonly changes: boolean;
}

/** How long a console session lasts from its sign-in: a working day. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;

/** The one answer to every refused sign-in, whatever was wrong. */
export const SIGN_IN_REFUSED =
  "The credentials were not accepted: sign in again with a valid API key or user and password.";

export class Identity {
  readonly #store: Store;
  readonly #audit: Audit;
  readonly #throttle: Throttle;
  readonly #onTenantCreated: ((tenant: string) => Promise<unknown>) | undefined;

  constructor(store: Store, audit: Audit, options: IdentityOptions = {}) {
    this.#store = store;
    this.#audit = audit;
    this.#throttle = new Throttle(store, options.throttle);
    this.#onTenantCreated = options.onTenantCreated;
  }

  // Tenants and users belong to the whole installation, not to one tenant: the admins of the
  // `default` tenant, where the embedded CLI acts unless told otherwise, manage them.

  /**
   * Creates a tenant, which then gets the default plugins; with `admin`, that user becomes its
   * admin of every agent at once, so the tenant has someone to sign in to it and make its keys.
   */
  async createTenant(
    caller: Caller,
    name: string,
    options: { readonly admin?: string | undefined } = {},
  ): Promise<TenantView> {
    requireInstallationAdmin(caller, "create tenants");
    checkTenantName(name);
    const view = await this.#store.transaction(async (trx) => {
      const admin =
        options.admin === undefined
          ? undefined
          : await trx.selectFrom("users").select("id").where("name", "=", options.admin).executeTakeFirst();
      if (options.admin !== undefined && admin === undefined) throw userNotFound(options.admin);
      const found = await trx
        .selectFrom("tenants")
        .select("name")
        .where("name", "=", name)
        .executeTakeFirst();
      if (found !== undefined) {
        throw new Oz0Error(
          "ALREADY_EXISTS",
          `tenant ${name} exists already; oz0 tenant list shows the tenants.`,
          {
            data: { kind: "tenant", name },
          },
        );
      }
      await trx.insertInto("tenants").values({ name, created_at: this.#store.clockSql }).execute();
      await this.#audit.record(
        {
          caller,
          action: "tenant.create",
          target: `tenant:${name}`,
          ...(options.admin === undefined ? {} : { detail: { admin: options.admin } }),
        },
        trx,
      );
      if (admin !== undefined && options.admin !== undefined) {
        await trx
          .insertInto("memberships")
          .values({
            tenant: name,
            user_id: admin.id,
            role: "admin",
            agents: JSON.stringify(["*"]),
            created_at: this.#store.clockSql,
            updated_at: this.#store.clockSql,
            updated_by: caller.actor,
          })
          .execute();
        // In the new tenant's own log, where its admins see who made them so.
        await this.#audit.record(
          {
            caller: { ...caller, tenant: name },
            action: "member.add",
            target: `user:${options.admin}`,
            detail: { role: "admin", agents: ["*"] },
          },
          trx,
        );
      }
      const row = await trx
        .selectFrom("tenants")
        .selectAll()
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
      return { name: row.name, createdAt: Number(row.created_at) };
    });
    await this.#onTenantCreated?.(name);
    return view;
  }

  async listTenants(caller: Caller): Promise<TenantView[]> {
    requireInstallationAdmin(caller, "list tenants");
    const rows = await this.#store.db.selectFrom("tenants").selectAll().orderBy("name").execute();
    return rows.map((row) => ({ name: row.name, createdAt: Number(row.created_at) }));
  }

  /** Adds a user who signs in with `password`; only its argon2id hash is kept. */
  async addUser(caller: Caller, name: string, password: string): Promise<UserView> {
    requireInstallationAdmin(caller, "add users");
    checkUserName(name);
    checkPassword(password);
    // Hashed before the transaction: argon2 takes a while, and SQLite's write lock is shared.
    const passwordHash = await hashPassword(password);
    await this.#store.transaction(async (trx) => {
      const found = await trx.selectFrom("users").select("id").where("name", "=", name).executeTakeFirst();
      if (found !== undefined) {
        throw new Oz0Error("ALREADY_EXISTS", `user ${name} exists already; oz0 user list shows the users.`, {
          data: { kind: "user", name },
        });
      }
      await trx
        .insertInto("users")
        .values({
          id: randomUUID(),
          name,
          password_hash: passwordHash,
          created_at: this.#store.clockSql,
          created_by: caller.actor,
        })
        .execute();
      await this.#audit.record({ caller, action: "user.add", target: `user:${name}` }, trx);
    });
    return (await this.#users(name))[0]!;
  }

  async listUsers(caller: Caller): Promise<UserView[]> {
    requireInstallationAdmin(caller, "list users");
    return this.#users(undefined);
  }

  /** Removes a user and every membership the user has. */
  async removeUser(caller: Caller, name: string): Promise<UserView> {
    requireInstallationAdmin(caller, "remove users");
    const [view] = await this.#users(name);
    if (view === undefined) throw userNotFound(name);
    await this.#store.transaction(async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("name", "=", name).executeTakeFirst();
      if (user === undefined) throw userNotFound(name);
      await trx.deleteFrom("memberships").where("user_id", "=", user.id).execute();
      await trx.deleteFrom("users").where("id", "=", user.id).execute();
      await this.#audit.record(
        {
          caller,
          action: "user.remove",
          target: `user:${name}`,
          detail: { memberships: view.tenants.map((each) => `${each.tenant}:${each.role}`) },
        },
        trx,
      );
    });
    return view;
  }

  async #users(name: string | undefined): Promise<UserView[]> {
    let query = this.#store.db.selectFrom("users").selectAll().orderBy("name");
    if (name !== undefined) query = query.where("name", "=", name);
    const users = await query.execute();
    if (users.length === 0) return [];
    const memberships = await this.#store.db
      .selectFrom("memberships")
      .select(["user_id", "tenant", "role"])
      .where(
        "user_id",
        "in",
        users.map((user) => user.id),
      )
      .orderBy("tenant")
      .execute();
    return users.map((user) => ({
      name: user.name,
      createdAt: Number(user.created_at),
      createdBy: user.created_by,
      tenants: memberships
        .filter((membership) => membership.user_id === user.id)
        .map((membership) => ({ tenant: membership.tenant, role: membership.role as Role })),
    }));
  }

  /**
   * Makes `user` a member of the caller's tenant with a role and agents, or changes the role
   * and agents of one who is.
   */
  async addMember(caller: Caller, request: MemberRequest): Promise<MemberChange> {
    requireRole(caller, "admin", "manage members");
    await requireTenant(this.#store.db, caller.tenant);
    const role = checkRole(request.role);
    const agents = grantable(caller, request.agents);
    return this.#store.transaction(async (trx) => {
      const user = await trx
        .selectFrom("users")
        .select("id")
        .where("name", "=", request.user)
        .executeTakeFirst();
      if (user === undefined) throw userNotFound(request.user);
      const before = await trx
        .selectFrom("memberships")
        .selectAll()
        .where("tenant", "=", caller.tenant)
        .where("user_id", "=", user.id)
        .executeTakeFirst();
      if (before === undefined) {
        await trx
          .insertInto("memberships")
          .values({
            tenant: caller.tenant,
            user_id: user.id,
            role,
            agents: JSON.stringify(agents),
            created_at: this.#store.clockSql,
            updated_at: this.#store.clockSql,
            updated_by: caller.actor,
          })
          .execute();
      } else {
        await trx
          .updateTable("memberships")
          .set({
            role,
            agents: JSON.stringify(agents),
            updated_at: this.#store.clockSql,
            updated_by: caller.actor,
          })
          .where("tenant", "=", caller.tenant)
          .where("user_id", "=", user.id)
          .execute();
      }
      const previous =
        before === undefined
          ? null
          : { role: before.role as Role, agents: JSON.parse(before.agents) as string[] };
      await this.#audit.record(
        {
          caller,
          action: before === undefined ? "member.add" : "member.update",
          target: `user:${request.user}`,
          detail: previous === null ? { role, agents } : { role, agents, previous },
        },
        trx,
      );
      const [member] = await this.#members(trx, caller.tenant, request.user);
      return { member: member!, previous };
    });
  }

  async listMembers(caller: Caller): Promise<MemberView[]> {
    requireRole(caller, "admin", "list members");
    await requireTenant(this.#store.db, caller.tenant);
    return this.#members(this.#store.db, caller.tenant, undefined);
  }

  async removeMember(caller: Caller, user: string): Promise<MemberView> {
    requireRole(caller, "admin", "manage members");
    await requireTenant(this.#store.db, caller.tenant);
    return this.#store.transaction(async (trx) => {
      const [member] = await this.#members(trx, caller.tenant, user);
      if (member === undefined) throw memberNotFound(user, caller.tenant);
      const found = await trx
        .selectFrom("users")
        .select("id")
        .where("name", "=", user)
        .executeTakeFirstOrThrow();
      await trx
        .deleteFrom("memberships")
        .where("tenant", "=", caller.tenant)
        .where("user_id", "=", found.id)
        .execute();
      await this.#audit.record(
        { caller, action: "member.remove", target: `user:${user}`, detail: { role: member.role } },
        trx,
      );
      return member;
    });
  }

  async #members(db: Executor, tenant: string, user: string | undefined): Promise<MemberView[]> {
    let query = db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select([
        "memberships.tenant",
        "users.name",
        "memberships.role",
        "memberships.agents",
        "memberships.created_at",
        "memberships.updated_at",
        "memberships.updated_by",
      ])
      .where("memberships.tenant", "=", tenant)
      .orderBy("users.name");
    if (user !== undefined) query = query.where("users.name", "=", user);
    const rows = await query.execute();
    return rows.map((row) => ({
      tenant: row.tenant,
      user: row.name,
      role: row.role as Role,
      agents: JSON.parse(row.agents) as string[],
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      updatedBy: row.updated_by,
    }));
  }

  /** Makes an API key of the caller's tenant; the whole key is in the answer, and nowhere else ever. */
  async createKey(caller: Caller, request: ApiKeyRequest): Promise<CreatedApiKey> {
    requireRole(caller, "admin", "create API keys");
    await requireTenant(this.#store.db, caller.tenant);
    const problem = nameProblem("plugin", request.name);
    if (problem !== undefined) {
      throw new Oz0Error("INVALID_NAME", `${problem.replace("plugin name", "key name")}.`, {
        data: { kind: "key", name: request.name },
      });
    }
    const role = checkRole(request.role);
    const agents = grantable(caller, request.agents);
    const made = newKey();
    const now = await this.#store.now();
    const expiresAt = request.expiresInMs === undefined ? null : now + request.expiresInMs;
    await this.#store.transaction(async (trx) => {
      await lockTenant(trx, this.#store.engine, caller.tenant);
      const taken = await trx
        .selectFrom("api_keys")
        .select("id")
        .where("tenant", "=", caller.tenant)
        .where("name", "=", request.name)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (taken !== undefined) {
        throw new Oz0Error(
          "ALREADY_EXISTS",
          `tenant ${caller.tenant} has a live API key named ${request.name} (${taken.id}); revoke it first (oz0 key revoke ${taken.id}) or pick another name.`,
          { data: { kind: "key", name: request.name, tenant: caller.tenant } },
        );
      }
      await trx
        .insertInto("api_keys")
        .values({
          id: made.id,
          tenant: caller.tenant,
          name: request.name,
          role,
          agents: JSON.stringify(agents),
          secret_hash: made.secretHash,
          created_at: now,
          created_by: caller.actor,
          expires_at: expiresAt,
          revoked_at: null,
          revoked_by: null,
        })
        .execute();
      await this.#audit.record(
        {
          caller,
          action: "key.create",
          target: `key:${made.id}`,
          detail: { name: request.name, role, agents, expiresAt },
        },
        trx,
      );
    });
    const [view] = await this.#keys(caller.tenant, made.id);
    return { id: made.id, key: made.key, view: view! };
  }

  /** The caller's tenant's keys, live and past; never a secret or its hash. */
  async listKeys(caller: Caller): Promise<ApiKeyView[]> {
    requireRole(caller, "admin", "list API keys");
    await requireTenant(this.#store.db, caller.tenant);
    return this.#keys(caller.tenant, undefined);
  }

  /** Revokes a key at once: its next request is refused. */
  async revokeKey(caller: Caller, id: string): Promise<ApiKeyView> {
    requireRole(caller, "admin", "revoke API keys");
    await requireTenant(this.#store.db, caller.tenant);
    const [view] = await this.#keys(caller.tenant, id);
    if (view === undefined) throw keyNotFound(id, caller.tenant);
    if (view.revokedAt !== null) return view;
    await this.#store.transaction(async (trx) => {
      await trx
        .updateTable("api_keys")
        .set({ revoked_at: this.#store.clockSql, revoked_by: caller.actor })
        .where("id", "=", id)
        .where("tenant", "=", caller.tenant)
        .where("revoked_at", "is", null)
        .execute();
      await this.#audit.record(
        { caller, action: "key.revoke", target: `key:${id}`, detail: { name: view.name } },
        trx,
      );
    });
    return (await this.#keys(caller.tenant, id))[0]!;
  }

  async #keys(tenant: string, id: string | undefined): Promise<ApiKeyView[]> {
    let query = this.#store.db
      .selectFrom("api_keys")
      .select([
        "id",
        "tenant",
        "name",
        "role",
        "agents",
        "created_at",
        "created_by",
        "expires_at",
        "revoked_at",
        "revoked_by",
      ])
      .where("tenant", "=", tenant)
      .orderBy("created_at")
      .orderBy("id");
    if (id !== undefined) query = query.where("id", "=", id);
    const [rows, now] = await Promise.all([query.execute(), this.#store.now()]);
    return rows.map((row) => {
      const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
      const revokedAt = row.revoked_at === null ? null : Number(row.revoked_at);
      const status: ApiKeyStatus =
        revokedAt !== null ? "revoked" : expiresAt !== null && expiresAt <= now ? "expired" : "active";
      return {
        id: row.id,
        tenant: row.tenant,
        name: row.name,
        role: row.role as Role,
        agents: JSON.parse(row.agents) as string[],
        status,
        createdAt: Number(row.created_at),
        createdBy: row.created_by,
        expiresAt,
        revokedAt,
        revokedBy: row.revoked_by,
      };
    });
  }

  /**
   * The Caller an API key stands for: its tenant, role and agents. Refused with
   * UNAUTHENTICATED and one message whatever was wrong (unreadable, unknown, wrong secret,
   * expired, revoked), or TOO_MANY_REQUESTS after too many failures from its source or for its id.
   */
  async authenticateKey(presented: string, signIn: SignIn = {}): Promise<Caller> {
    const now = await this.#store.now();
    const parsed = readKey(presented);
    const subject = parsed === undefined ? undefined : `key:${parsed.id}`;
    const buckets = this.#throttle.buckets(signIn.source, subject);
    await this.#throttle.check(buckets, now);
    const row =
      parsed === undefined
        ? undefined
        : await this.#store.db
            .selectFrom("api_keys")
            .selectAll()
            .where("id", "=", parsed.id)
            .executeTakeFirst();
    // Compared even when there is nothing to compare with, so an unknown key costs what a known one does.
    const matches = secretMatches(parsed?.secret ?? "", row?.secret_hash ?? NO_KEY_HASH);
    const reason =
      parsed === undefined
        ? "not an oz0 key"
        : row === undefined
          ? "unknown key"
          : !matches
            ? "wrong secret"
            : row.revoked_at !== null
              ? "revoked"
              : row.expires_at !== null && Number(row.expires_at) <= now
                ? "expired"
                : !isRole(row.role)
                  ? `unknown role ${row.role}`
                  : undefined;
    if (reason !== undefined || row === undefined) {
      await this.#refuse(buckets, now, {
        tenant: row?.tenant ?? null,
        target: subject ?? "key:unreadable",
        detail: { scheme: "key", reason: reason ?? "unknown key", source: signIn.source ?? null },
      });
    }
    await this.#throttle.succeed(subject!);
    return Object.freeze({
      tenant: row!.tenant,
      actor: `key:${row!.id}`,
      role: row!.role as Role,
      agents: Object.freeze(JSON.parse(row!.agents) as string[]),
    });
  }

  /**
   * The Caller a user signing in to `tenant` is: the membership's role and agents. Refused
   * with UNAUTHENTICATED and one message whatever was wrong (unknown user, wrong password, no
   * membership of the tenant, no such tenant), or TOO_MANY_REQUESTS after too many failures
   * from its source or for the user.
   */
  async authenticatePassword(
    user: string,
    password: string,
    tenant: string,
    signIn: SignIn = {},
  ): Promise<Caller> {
    const now = await this.#store.now();
    const nameOk = /^[a-z0-9][a-z0-9._@-]{0,63}$/.test(user);
    const buckets = this.#throttle.buckets(signIn.source, nameOk ? `user:${user}` : undefined);
    await this.#throttle.check(buckets, now);
    const found = nameOk
      ? await this.#store.db.selectFrom("users").selectAll().where("name", "=", user).executeTakeFirst()
      : undefined;
    const membership =
      found === undefined
        ? undefined
        : await this.#store.db
            .selectFrom("memberships")
            .selectAll()
            .where("tenant", "=", tenant)
            .where("user_id", "=", found.id)
            .executeTakeFirst();
    const tooLong = password.length > MAX_PASSWORD_LENGTH;
    // Verified even for an unknown user, against a hash of nothing, so the answer takes as long.
    const matches =
      (await passwordMatches(found?.password_hash ?? (await noUserHash()), tooLong ? "" : password)) &&
      !tooLong;
    const reason =
      found === undefined
        ? "unknown user"
        : !matches
          ? "wrong password"
          : membership === undefined
            ? `not a member of tenant ${tenant}`
            : !isRole(membership.role)
              ? `unknown role ${membership.role}`
              : undefined;
    if (reason !== undefined || membership === undefined) {
      const known =
        nameProblem("plugin", tenant) === undefined
          ? await this.#store.db
              .selectFrom("tenants")
              .select("name")
              .where("name", "=", tenant)
              .executeTakeFirst()
          : undefined;
      await this.#refuse(buckets, now, {
        tenant: known?.name ?? null,
        target: nameOk ? `user:${user}` : "user:unreadable",
        detail: { scheme: "password", reason: reason ?? "unknown user", source: signIn.source ?? null },
      });
    }
    await this.#throttle.succeed(`user:${user}`);
    return Object.freeze({
      tenant,
      actor: `user:${user}`,
      role: membership!.role as Role,
      agents: Object.freeze(JSON.parse(membership!.agents) as string[]),
    });
  }

  /**
   * Signs a person in to the console: their password is checked as authenticatePassword does
   * (or the key as authenticateKey does, with the same one refusal and rate limits), and a
   * session is made that stands for that membership or key until it ends or expires.
   */
  async startSession(request: SessionRequest, signIn: SignIn = {}): Promise<StartedSession> {
    const caller =
      "key" in request
        ? await this.authenticateKey(request.key, signIn)
        : await this.authenticatePassword(request.user, request.password, request.tenant, signIn);
    const subject =
      "key" in request
        ? caller.actor
        : `user:${(await this.#store.db.selectFrom("users").select("id").where("name", "=", request.user).executeTakeFirstOrThrow()).id}`;
    const made = newSessionToken();
    const now = await this.#store.now();
    const expiresAt = now + SESSION_TTL_MS;
    // Sessions that ended or expired are refused anyway: each sign-in clears them away.
    await this.#store.db
      .deleteFrom("sessions")
      .where((eb) => eb.or([eb("expires_at", "<", now), eb("ended_at", "is not", null)]))
      .execute();
    await this.#store.db
      .insertInto("sessions")
      .values({
        id: made.id,
        tenant: caller.tenant,
        subject,
        secret_hash: made.secretHash,
        created_at: now,
        expires_at: expiresAt,
        ended_at: null,
      })
      .execute();
    return { token: made.key, csrf: csrfTokenOf(readSessionToken(made.key)!.secret), caller, expiresAt };
  }

  /**
   * The Caller a console session stands for now: its membership's role and agents as they are
   * at this request (or its key's, while the key is live). Refused as any sign-in is when the
   * token is unknown, wrong, ended or expired, or the membership or key is gone; FORBIDDEN when a
   * request that changes something lacks the session's CSRF token.
   */
  async authenticateSession(
    presented: string,
    check: SessionCheck,
  ): Promise<{ caller: Caller; csrf: string }> {
    const now = await this.#store.now();
    const parsed = readSessionToken(presented);
    const subject = parsed === undefined ? undefined : `session:${parsed.id}`;
    const buckets = this.#throttle.buckets(check.source, subject);
    await this.#throttle.check(buckets, now);
    const row =
      parsed === undefined
        ? undefined
        : await this.#store.db
            .selectFrom("sessions")
            .selectAll()
            .where("id", "=", parsed.id)
            .executeTakeFirst();
    const matches = secretMatches(parsed?.secret ?? "", row?.secret_hash ?? NO_KEY_HASH);
    const live =
      row === undefined || !matches
        ? undefined
        : row.ended_at !== null
          ? "ended"
          : Number(row.expires_at) <= now
            ? "expired"
            : await this.#sessionCaller(row.tenant, row.subject, now);
    if (row === undefined || typeof live !== "object") {
      const reason =
        parsed === undefined
          ? "not an oz0 session"
          : row === undefined
            ? "unknown session"
            : !matches
              ? "wrong secret"
              : (live ?? "unknown session");
      await this.#refuse(buckets, now, {
        tenant: row?.tenant ?? null,
        target: subject ?? "session:unreadable",
        detail: { scheme: "session", reason, source: check.source ?? null },
      });
    }
    const caller = live as Caller;
    const csrf = csrfTokenOf(parsed!.secret);
    if (check.changes && !tokensMatch(check.csrf ?? "", csrf)) {
      throw new Oz0Error(
        "FORBIDDEN",
        "this request changes something and is signed in by a console session, so it must carry the session's CSRF token (X-CSRF-Token), which the sign-in answered with.",
        { data: { tenant: caller.tenant, action: "change without the CSRF token", role: caller.role } },
      );
    }
    return { caller, csrf };
  }

  /** Ends a console session (signing out); a token that is no live session changes nothing. */
  async endSession(presented: string): Promise<void> {
    const parsed = readSessionToken(presented);
    if (parsed === undefined) return;
    const row = await this.#store.db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", parsed.id)
      .executeTakeFirst();
    if (row === undefined || !secretMatches(parsed.secret, row.secret_hash) || row.ended_at !== null) return;
    await this.#store.db
      .updateTable("sessions")
      .set({ ended_at: await this.#store.now() })
      .where("id", "=", row.id)
      .execute();
  }

  /** The caller a session's subject is now, or why it is none. */
  async #sessionCaller(tenant: string, subject: string, now: number): Promise<Caller | string> {
    const [kind, id] = subject.split(":") as [string, string];
    if (kind === "key") {
      const key = await this.#store.db
        .selectFrom("api_keys")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      if (key === undefined || key.revoked_at !== null) return "key revoked";
      if (key.expires_at !== null && Number(key.expires_at) <= now) return "key expired";
      if (!isRole(key.role)) return `unknown role ${key.role}`;
      return Object.freeze({
        tenant: key.tenant,
        actor: `key:${key.id}`,
        role: key.role,
        agents: Object.freeze(JSON.parse(key.agents) as string[]),
      });
    }
    const member = await this.#store.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["users.name", "memberships.role", "memberships.agents"])
      .where("memberships.tenant", "=", tenant)
      .where("memberships.user_id", "=", id)
      .executeTakeFirst();
    if (member === undefined) return `not a member of tenant ${tenant}`;
    if (!isRole(member.role)) return `unknown role ${member.role}`;
    return Object.freeze({
      tenant,
      actor: `user:${member.name}`,
      role: member.role,
      agents: Object.freeze(JSON.parse(member.agents) as string[]),
    });
  }

  async #refuse(
    buckets: ReturnType<Throttle["buckets"]>,
    now: number,
    failure: Parameters<Audit["recordAuthFailure"]>[0],
  ): Promise<never> {
    await this.#throttle.fail(buckets, now);
    await this.#audit.recordAuthFailure(failure);
    throw new Oz0Error("UNAUTHENTICATED", SIGN_IN_REFUSED, {
      data: {
        scheme:
          failure.detail.scheme === "key"
            ? "Bearer"
            : failure.detail.scheme === "session"
              ? "Session"
              : "Password",
      },
    });
  }
}

type Executor = Store["db"] | Transaction<Database>;

/**
 * Tenants and users are the installation's: managed by the admins of the `default` tenant with
 * every agent. A user's memberships name every tenant's agents, which an admin of some agents
 * only may not see.
 */
function requireInstallationAdmin(caller: Caller, action: string): void {
  requireRole(caller, "admin", action);
  if (caller.tenant === DEFAULT_TENANT && caller.agents.includes("*")) return;
  if (caller.tenant === DEFAULT_TENANT) {
    throw new Oz0Error(
      "FORBIDDEN",
      `${caller.actor} may not ${action}: tenants and users belong to the whole installation, and only the admins of tenant ${DEFAULT_TENANT} with every agent (--agents '*') manage them.`,
      { data: { tenant: caller.tenant, action, role: caller.role } },
    );
  }
  throw new Oz0Error(
    "FORBIDDEN",
    `${caller.actor} may not ${action} from tenant ${caller.tenant}: tenants and users belong to the whole installation, and the admins of tenant ${DEFAULT_TENANT} manage them (run it with --tenant ${DEFAULT_TENANT}, or leave --tenant out).`,
    { data: { tenant: caller.tenant, action, role: caller.role } },
  );
}

function checkRole(role: string): Role {
  if (isRole(role)) return role;
  throw new Oz0Error(
    "INVALID_INPUT",
    `role ${role}: it takes one of ${ROLES.join(", ")} (each includes the one before it).`,
    { data: { issues: [{ path: "role", message: `one of ${ROLES.join(", ")}` }] } },
  );
}

/** The agents a grant names, checked, and within the granting caller's own. */
function grantable(caller: Caller, requested: readonly string[] | undefined): string[] {
  const agents = checkAgentScope(requested ?? ["*"]);
  if (withinScope(caller.agents, agents)) return agents;
  throw new Oz0Error(
    "FORBIDDEN",
    `${caller.actor} may grant only the agents in its own scope (${caller.agents.join(", ")}), and ${agents.join(", ")} goes beyond it.`,
    { data: { tenant: caller.tenant, action: "grant agents", role: caller.role } },
  );
}

function userNotFound(name: string): Oz0Error {
  return new Oz0Error("NOT_FOUND", `user ${name} does not exist; oz0 user list shows the users.`, {
    data: { kind: "user", name },
  });
}

/** The answer about a member the tenant does not have (or one the caller may not see). */
export function memberNotFound(user: string, tenant: string): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    `${user} is not a member of tenant ${tenant}; oz0 member list shows its members.`,
    {
      data: { kind: "member", name: user, tenant },
    },
  );
}

/** The answer about a key the tenant does not have (or one the caller may not see). */
export function keyNotFound(id: string, tenant: string): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    `tenant ${tenant} has no API key ${id}; oz0 key list shows its keys by id.`,
    {
      data: { kind: "key", name: id, tenant },
    },
  );
}
