// What the catalog's tests share: the fixture plugin folders, a snapshot of a tenant's rows to
// compare before and after a refused change, and a way to write a clash past the install
// checks, as an older store or a restored backup would hold one.
import { fileURLToPath } from "node:url";
import { isOz0Error, type Oz0Error } from "@oz0/sdk";
import type { Kysely } from "kysely";
import { expect } from "vitest";
import type { Database, Store } from "../../src/store/index.js";

/** A fixture plugin folder under test/fixtures/plugins, or `support-triage` from examples/. */
export function plugin(name: string): string {
  if (name === "support-triage") {
    return fileURLToPath(new URL("../../../../examples/support-triage", import.meta.url));
  }
  return fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url));
}

/** Every row the catalog keeps for `tenant`, in a fixed order. */
export async function tenantRows(store: Store, tenant: string): Promise<unknown> {
  const { db } = store;
  return {
    tenants: await db.selectFrom("tenants").select("name").where("name", "=", tenant).execute(),
    plugins: await db
      .selectFrom("plugins")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("name")
      .execute(),
    parts: await db
      .selectFrom("parts")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("plugin")
      .orderBy("kind")
      .orderBy("name")
      .execute(),
    changes: await db
      .selectFrom("plugin_changes")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("seq")
      .execute(),
  };
}

/** Awaits `work`, expecting an Oz0Error of `code`, and returns it. */
export async function refusal(work: Promise<unknown>, code: Oz0Error["code"]): Promise<Oz0Error> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isOz0Error(error), `expected ${code}, got ${String(error)}`).toBe(true);
  expect((error as Oz0Error).code, (error as Oz0Error).message).toBe(code);
  return error as Oz0Error;
}

/** Adds a plugin row and its parts straight to the store, past every install check. */
export async function writePast(
  db: Kysely<Database>,
  tenant: string,
  name: string,
  parts: { kind: "agent" | "flow" | "tool" | "function" | "skill"; name: string; definition?: object }[],
): Promise<void> {
  await db
    .insertInto("plugins")
    .values({
      tenant,
      name,
      version: "0.9.0",
      dir: `/restored/${name}`,
      manifest: JSON.stringify({ name, version: "0.9.0" }),
      installed_at: 1,
    })
    .execute();
  await db
    .insertInto("parts")
    .values(
      parts.map((part) => ({
        tenant,
        kind: part.kind,
        name: part.name,
        plugin: name,
        definition: JSON.stringify(part.definition ?? defaultDefinition(part.kind)),
      })),
    )
    .execute();
}

function defaultDefinition(kind: string): object {
  switch (kind) {
    case "agent":
      return { file: "plugin.yaml", definition: { description: "restored" } };
    case "flow":
      return { definition: { description: "restored", steps: [] } };
    case "tool":
      return { description: "restored", source: "code" };
    case "function":
      return { description: "restored", inputSchema: { type: "object" } };
    default:
      return { description: "restored", file: "skills/x/SKILL.md" };
  }
}
