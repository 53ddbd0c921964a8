// Routines as callers see them: a tenant's routines and their fires, read by a viewer, fired
// by a runner (as the routine's identity, never above the caller's role), paused, resumed,
// added, removed and given webhook secrets by an operator. The routines module keeps its own
// checks (scope, the identity a fire runs as); this layer adds the table's role check and the
// change event every change sends.
import { isOz0Error, Oz0Error, type RoutineInput } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import { withinScope } from "../identity/index.js";
import type { FireView, RoutineView } from "../routines/index.js";
import { type ServiceCore, scoped } from "./core.js";

export class RoutinesService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The tenant's routines whose agent is within the caller's scope. */
  async list(caller: Caller): Promise<RoutineView[]> {
    this.#core.check(caller, "routines.list");
    return this.#core.deps.routines.list(caller);
  }

  /** Fires routine `name` now; one outside the caller's scope is NOT_FOUND, as a missing one. */
  async fire(caller: Caller, name: string, options: { readonly input?: unknown } = {}): Promise<FireView> {
    return this.#core.change(caller, "routines.fire", name, () =>
      hidden(caller, name, () => this.#core.deps.routines.fire(caller, name, options)),
    );
  }

  async pause(caller: Caller, name: string): Promise<RoutineView> {
    return this.#core.change(caller, "routines.pause", name, () =>
      hidden(caller, name, () => this.#core.deps.routines.pause(caller, name)),
    );
  }

  async resume(caller: Caller, name: string): Promise<RoutineView> {
    return this.#core.change(caller, "routines.resume", name, () =>
      hidden(caller, name, () => this.#core.deps.routines.resume(caller, name)),
    );
  }

  /** The routine's fires, newest first. */
  async history(
    caller: Caller,
    name: string,
    options: { readonly limit?: number } = {},
  ): Promise<FireView[]> {
    this.#core.check(caller, "routines.history");
    return hidden(caller, name, () => this.#core.deps.routines.history(caller, name, options));
  }

  /**
   * Adds a routine of the tenant's own, checked as install checks a manifest's. A caller limited
   * to some agents adds only a routine of an agent within them (any other is answered as one
   * that does not exist) that runs as no more agents than it has.
   */
  async add(caller: Caller, input: RoutineInput): Promise<RoutineView> {
    const target = typeof input?.name === "string" ? input.name : "";
    return this.#core.change(caller, "routines.add", target, async () => {
      if (scoped(caller)) {
        if (typeof input?.run === "string" && input.run.includes("/"))
          await this.#core.agent(caller, input.run, "agent-or-flow");
        const agents = input?.identity?.agents;
        if (Array.isArray(agents) && !withinScope(caller.agents, agents)) {
          throw new Oz0Error(
            "FORBIDDEN",
            `${caller.actor} may give a routine only the agents in its own scope (${caller.agents.join(", ")}), and ${agents.join(", ")} goes beyond it.`,
            { data: { tenant: caller.tenant, action: "add a routine", role: caller.role } },
          );
        }
      }
      return this.#core.deps.routines.add(caller, input);
    });
  }

  async remove(caller: Caller, name: string): Promise<{ readonly removed: string }> {
    return this.#core.change(caller, "routines.remove", name, () =>
      hidden(caller, name, () => this.#core.deps.routines.remove(caller, name)),
    );
  }

  /** Makes a webhook routine's signing secret anew; the answer holds it, the change event does not. */
  async secret(caller: Caller, name: string): Promise<{ readonly routine: string; readonly secret: string }> {
    return this.#core.change(caller, "routines.secret", name, () =>
      hidden(caller, name, () => this.#core.deps.routines.secret(caller, name)),
    );
  }
}

/**
 * For a caller limited to some agents, a missing routine is refused without the tenant's
 * routine names the plain refusal lists: some of them run agents outside the caller's scope.
 */
async function hidden<T>(caller: Caller, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      scoped(caller) &&
      isOz0Error(error, "NOT_FOUND") &&
      (error.data as { kind?: string })?.kind === "routine"
    ) {
      throw new Oz0Error("NOT_FOUND", `tenant ${caller.tenant} has no routine ${name}.`, {
        data: { kind: "routine", name, tenant: caller.tenant },
      });
    }
    throw error;
  }
}
