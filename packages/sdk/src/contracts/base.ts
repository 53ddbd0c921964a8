// The contract taxonomy as classes: ContractBase, its three families, and the contracts with
// no behaviour of their own. A contract's `contractId` is what `@plugin` collects into
// `implements`; only a class that declares it itself counts, so family classes add nothing.

/** The constructor of a contract class; `@plugin` and `host.addContract` take one. */
export type ContractClass<T extends ContractBase = ContractBase> = abstract new (...args: never[]) => T;

/** The three branches of the taxonomy under ContractBase. */
export type ContractFamily = "capability" | "orchestration" | "governance";

/** Classes mixed into a composite with `withContracts`, kept on the composite's constructor. */
export const MIXED_IN: unique symbol = Symbol("oz0.contracts.mixedIn");

/**
 * The root of every contract. `instanceof` also sees contracts mixed in with
 * `withContracts`, as a multiply-inheriting class would be an instance of each parent.
 */
export abstract class ContractBase {
  /** `<name>@v<major>`; set by `@plugin` from the class name unless the class sets it. */
  declare static readonly pluginId: string;
  /** Contract IDs the class implements; set by `@plugin` from its contracts. */
  declare static readonly implements: readonly string[];
  /** Contract IDs the plugin needs beside it (`@plugin({ requires: ["recorder"] })`). */
  declare static readonly requires: readonly string[];
  /** Governance contracts that watch it; informational (`@plugin({ governedBy: ["budget"] })`). */
  declare static readonly governedBy: readonly string[];

  /** Which branch of the taxonomy the contract is in. */
  abstract get contractFamily(): ContractFamily;

  // `this` is the class on the right of `instanceof`, which may be any contract below this one.
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class being tested, not ContractBase
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (typeof value !== "object" || value === null) return false;
    // biome-ignore lint/complexity/noThisInStatic: the class being tested, not ContractBase
    return contractClassesOf(value.constructor).includes(this);
  }
}

/** A class, its ancestors and every class mixed in along the way, in lookup order. */
export function contractClassesOf(start: unknown): unknown[] {
  const found: unknown[] = [];
  const visit = (ctor: unknown): void => {
    const chain: unknown[] = [];
    for (let k = ctor; typeof k === "function" && k !== Function.prototype; k = Object.getPrototypeOf(k)) {
      if (found.includes(k)) break;
      chain.push(k);
      found.push(k);
    }
    for (const k of chain) {
      for (const mixin of (k as { [MIXED_IN]?: readonly unknown[] })[MIXED_IN] ?? []) visit(mixin);
    }
  };
  visit(start);
  return found;
}

/** WHAT an agent can access. */
export abstract class CapabilityContract extends ContractBase {
  override get contractFamily(): ContractFamily {
    return "capability";
  }
}

/** HOW control flows. */
export abstract class OrchestrationContract extends ContractBase {
  override get contractFamily(): ContractFamily {
    return "orchestration";
  }
}

/**
 * POLICY over capabilities. A governance contract handles hooks with methods named
 * `on_<hook>` (or camelCase `onPreLlmCall`) and refuses an action by throwing
 * PolicyViolation.
 */
export abstract class GovernanceContract extends ContractBase {
  override get contractFamily(): ContractFamily {
    return "governance";
  }
}

export abstract class PromptContract extends CapabilityContract {
  static readonly contractId: string = "prompt";
}
export abstract class SensorContract extends CapabilityContract {
  static readonly contractId: string = "sensor";
}
export abstract class SessionContract extends CapabilityContract {
  static readonly contractId: string = "session";
}
export abstract class ExecutionSessionContract extends CapabilityContract {
  static readonly contractId: string = "execution";
}
export abstract class TransportContract extends CapabilityContract {
  static readonly contractId: string = "transport";
}
export abstract class MessageContract extends CapabilityContract {
  static readonly contractId: string = "message";
}
export abstract class RecorderContract extends CapabilityContract {
  static readonly contractId: string = "recorder";
}
export abstract class ControlContract extends CapabilityContract {
  static readonly contractId: string = "control";
}
export abstract class SharedContextContract extends CapabilityContract {
  static readonly contractId: string = "shared_context";
}
export abstract class DelegationContract extends CapabilityContract {
  static readonly contractId: string = "delegation";
}
export abstract class ModelAccessContract extends CapabilityContract {
  static readonly contractId: string = "model_access";
}
/** The context mixin of the source platform's BasePlugin. */
export abstract class ContextContract extends CapabilityContract {
  static readonly contractId: string = "context";
}
export abstract class LLMContract extends CapabilityContract {
  static readonly contractId: string = "llm";
}
export abstract class DesignPatternContract extends CapabilityContract {
  static readonly contractId: string = "dp";
}
export abstract class GatewayContract extends CapabilityContract {
  static readonly contractId: string = "gateway";
}

export abstract class WorkflowContract extends OrchestrationContract {
  static readonly contractId: string = "workflow";
}

export abstract class BudgetContract extends GovernanceContract {
  static readonly contractId: string = "budget";
}
export abstract class RoutingContract extends GovernanceContract {
  static readonly contractId: string = "routing";
}
