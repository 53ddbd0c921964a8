// MemoryContract: a memory provider written as a class. Registered with the host, it is a
// memory capability named after its plugin ID.
import type { MemoryEntry, MemoryEntryInput, MemoryHit, MemoryProvider } from "../host/specs.js";
import { CapabilityContract } from "./base.js";

export abstract class MemoryContract extends CapabilityContract implements MemoryProvider {
  static readonly contractId: string = "memory";

  abstract store(entry: MemoryEntryInput): MemoryEntry | Promise<MemoryEntry>;

  abstract get(key: string): MemoryEntry | undefined | Promise<MemoryEntry | undefined>;

  abstract search(
    query: string,
    options?: { readonly limit?: number },
  ): readonly MemoryHit[] | Promise<readonly MemoryHit[]>;
}
