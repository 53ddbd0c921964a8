// The role table: docs/roles.md and SERVICE_ROLES say the same, every service method has its
// row, and every operation refuses a caller one role short with FORBIDDEN before it does
// anything (no change is told), while the role it names gets past the check.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, ROLES, type Role } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import {
  type ChangeEvent,
  SERVICE_ROLES,
  type ServiceAction,
  type Services,
} from "../../src/services/index.js";

const DOCS = join(import.meta.dirname, "../../../../docs/roles.md");
const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");

let runtime: Runtime;
let home: string;
const changes: ChangeEvent[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-roles-"));
  runtime = await Runtime.open({
    home,
    memory: true,
    defaultPlugins: [],
    onChange: (event) => void changes.push(event),
  });
  await runtime.catalog.install("default", SCOPED);
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

function caller(role: Role): Caller {
  return { tenant: "default", actor: `key:${role}`, role, agents: ["*"] };
}

/** Calls the operation `action` names with arguments that name nothing. */
function invoke(services: Services, action: ServiceAction, who: Caller): Promise<unknown> {
  const [area, method] = action.split(".") as [string, string];
  const target = (services as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[
    area
  ];
  const nothing = join(home, "nothing");
  return Promise.resolve().then(() => target![method]!.call(target, who, nothing, nothing, nothing));
}

async function outcome(work: Promise<unknown>): Promise<{ code?: string; data?: unknown } | "done"> {
  try {
    const result = await work;
    // An MCP server that opened is closed again.
    if (typeof (result as { close?: unknown })?.close === "function")
      await (result as { close(): Promise<void> }).close();
    return "done";
  } catch (error) {
    return error as { code?: string; data?: unknown };
  }
}

describe("the role table", () => {
  it("is the one docs/roles.md prints", async () => {
    const text = await readFile(DOCS, "utf8");
    const rows = [...text.matchAll(/^\| `([a-zA-Z.]+)` \| (\w+) \| (.+) \|$/gm)].map(
      ([, action, role, does]) => [action, { role, does }],
    );
    expect(Object.fromEntries(rows)).toEqual(SERVICE_ROLES);
  });

  it("has a row for every method of every service, and a method for every row", () => {
    const methods: string[] = [];
    for (const [area, service] of Object.entries(runtime.services)) {
      for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(service))) {
        if (name !== "constructor") methods.push(`${area}.${name}`);
      }
    }
    // decide is approve and deny under one name.
    expect(methods.filter((name) => name !== "approvals.decide").sort()).toEqual(
      Object.keys(SERVICE_ROLES).sort(),
    );
  });
});

describe("every operation", () => {
  for (const [action, rule] of Object.entries(SERVICE_ROLES) as [ServiceAction, { role: Role }][]) {
    const below = ROLES[ROLES.indexOf(rule.role) - 1];
    if (below !== undefined) {
      it(`${action} refuses a ${below} with FORBIDDEN, before anything else, and tells no change`, async () => {
        const before = changes.length;
        const result = await outcome(invoke(runtime.services, action, caller(below)));
        expect(result).toMatchObject({ code: "FORBIDDEN", data: { role: below, needs: rule.role } });
        expect(changes.length).toBe(before);
      });
    }
    it(`${action} lets a ${rule.role} past the role check`, async () => {
      const result = await outcome(invoke(runtime.services, action, caller(rule.role)));
      if (result !== "done") expect(result.code).not.toBe("FORBIDDEN");
    });
  }

  it("refuses a caller without a tenant before it acts", async () => {
    for (const tenant of ["", undefined]) {
      const who = { ...caller("admin"), tenant } as unknown as Caller;
      expect(await outcome(runtime.services.jobs.get(who, "x"))).toMatchObject({ code: "INVALID_INPUT" });
      expect(await outcome(runtime.services.plugins.install(who, SCOPED))).toMatchObject({
        code: "INVALID_INPUT",
      });
    }
  });
});
