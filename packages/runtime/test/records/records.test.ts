// Records on every engine: versions per kind and key, the tenant's retention per kind, legal
// holds that keep what they cover, and erasure by subject that removes every version.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { Records } from "../../src/records/index.js";
import { inCallScope } from "../../src/scope/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const DAY = 86_400_000;

async function thrown(work: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work();
  } catch (error) {
    if (isOz0Error(error)) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe.each(fixtures)("records on $label", (fixture) => {
  let store: Store;
  let records: Records;
  const TENANT = "default";
  beforeEach(async () => {
    store = await openStore(await fixture.fresh());
    await store.db.insertInto("tenants").values({ name: "acme", created_at: store.clockSql }).execute();
    records = new Records(store);
    return () => store.close();
  });

  /** Moves every version of a key `days` into the past, as if it had been put then. */
  async function age(plugin: string, kind: string, key: string, days: number) {
    const now = await store.now();
    await store.db
      .updateTable("records")
      .set({ created_at: now - days * DAY })
      .where("plugin", "=", plugin)
      .where("kind", "=", kind)
      .where("key", "=", key)
      .execute();
  }

  it("keeps every version of a key: get gives the latest or the one asked for, history all of them", async () => {
    const api = records.forPlugin(TENANT, "crm");
    const first = await api.put("contact", "c-1", { name: "Ada", city: "London" }, { subject: "person:ada" });
    const second = await api.put("contact", "c-1", { name: "Ada", city: "Paris" }, { subject: "person:ada" });
    expect([first.version, second.version]).toEqual([1, 2]);
    expect((await api.get("contact", "c-1"))?.value).toEqual({ name: "Ada", city: "Paris" });
    expect((await api.get("contact", "c-1", { version: 1 }))?.value).toEqual({ name: "Ada", city: "London" });
    expect((await api.history("contact", "c-1")).map((record) => record.version)).toEqual([1, 2]);
    expect(await api.get("contact", "nobody")).toBeUndefined();
    expect((await api.get("contact", "c-1"))?.subject).toBe("person:ada");
  });

  it("lists the latest version of each key, and a plugin sees only its own records", async () => {
    const crm = records.forPlugin(TENANT, "crm");
    await crm.put("contact", "c-1", "one");
    await crm.put("contact", "c-1", "one, again");
    await crm.put("contact", "c-2", "two", { subject: "person:bo" });
    await records.forPlugin(TENANT, "billing").put("contact", "c-1", "billing's");
    await records.forPlugin("acme", "crm").put("contact", "c-3", "another tenant's");
    const listed = await crm.list("contact");
    expect(listed.map((record) => [record.key, record.value]).sort()).toEqual([
      ["c-1", "one, again"],
      ["c-2", "two"],
    ]);
    expect((await crm.list("contact", { subject: "person:bo" })).map((record) => record.key)).toEqual([
      "c-2",
    ]);
    expect((await records.list(TENANT, {})).length).toBe(3);
  });

  it("refuses a kind that is not a kind's name, an empty key, and a value over the limit, naming each", async () => {
    const api = records.forPlugin(TENANT, "crm");
    expect((await thrown(() => api.put("Contact!", "k", 1))).message).toMatch(
      /record kind "Contact!" is not a kind's name/,
    );
    expect((await thrown(() => api.put("contact", "", 1))).message).toMatch(/key is 1 to 512 characters/);
    expect((await thrown(() => api.put("contact", "k", "x".repeat(1_048_577)))).message).toMatch(
      /over the 1048576/,
    );
  });

  it("retention removes the versions of a kind older than its days, at the next read, and only that kind's", async () => {
    const api = records.forPlugin(TENANT, "crm");
    await api.put("contact", "old", "from last year");
    await api.put("contact", "new", "from today");
    await api.put("note", "old", "a note kept for ever");
    await age("crm", "contact", "old", 400);
    await age("crm", "note", "old", 400);
    await records.setRetention(TENANT, "crm", "contact", 365, "ops");
    expect(await api.get("contact", "old")).toBeUndefined();
    expect((await api.get("contact", "new"))?.value).toBe("from today");
    expect((await api.get("note", "old"))?.value).toBe("a note kept for ever");
    expect(await records.retention(TENANT)).toEqual([
      expect.objectContaining({ plugin: "crm", kind: "contact", days: 365, setBy: "ops" }),
    ]);
    expect((await thrown(() => records.setRetention(TENANT, "crm", "contact", 0, "ops"))).message).toMatch(
      /whole number of days from 1/,
    );
  });

  it("a legal hold keeps what it covers from retention until it is released", async () => {
    const api = records.forPlugin(TENANT, "crm");
    await api.put("contact", "held", "under hold");
    await api.put("contact", "free", "not held");
    await age("crm", "contact", "held", 30);
    await age("crm", "contact", "free", 30);
    const hold = await records.hold(
      TENANT,
      { plugin: "crm", kind: "contact", key: "held" },
      "case 42",
      "counsel",
    );
    await records.setRetention(TENANT, "crm", "contact", 7, "ops");
    expect((await api.get("contact", "held"))?.value).toBe("under hold");
    expect(await api.get("contact", "free")).toBeUndefined();
    expect((await records.holds(TENANT)).map((one) => one.id)).toEqual([hold.id]);
    const released = await records.release(TENANT, hold.id, "counsel");
    expect(released.releasedBy).toBe("counsel");
    expect(await api.get("contact", "held")).toBeUndefined();
    expect(await records.holds(TENANT)).toEqual([]);
    expect((await records.holds(TENANT, { all: true })).length).toBe(1);
    expect((await thrown(() => records.release(TENANT, hold.id, "counsel"))).message).toMatch(
      /released already/,
    );
    expect((await thrown(() => records.release(TENANT, "hold-nope", "counsel"))).code).toBe("NOT_FOUND");
  });

  it("erasure removes every version about a subject, in every plugin, and nothing else", async () => {
    await records.forPlugin(TENANT, "crm").put("contact", "c-1", { name: "Ada" }, { subject: "person:ada" });
    await records
      .forPlugin(TENANT, "crm")
      .put("contact", "c-1", { name: "Ada L." }, { subject: "person:ada" });
    await records
      .forPlugin(TENANT, "billing")
      .put("invoice", "i-9", { to: "Ada" }, { subject: "person:ada" });
    await records.forPlugin(TENANT, "crm").put("contact", "c-2", { name: "Bo" }, { subject: "person:bo" });
    await records.forPlugin("acme", "crm").put("contact", "c-1", { name: "Ada" }, { subject: "person:ada" });
    const erased = await records.erase(TENANT, "person:ada");
    expect(erased).toMatchObject({ subject: "person:ada", records: 2, versions: 3 });
    expect(await records.list(TENANT, { subject: "person:ada" })).toEqual([]);
    expect((await records.list(TENANT, {})).map((record) => record.key)).toEqual(["c-2"]);
    // Another tenant's records about the same subject are that tenant's to erase.
    expect((await records.list("acme", {})).length).toBe(1);
  });

  it("a hold on a subject, or on a record about it, refuses its erasure and erases nothing", async () => {
    await records.forPlugin(TENANT, "crm").put("contact", "c-1", { name: "Ada" }, { subject: "person:ada" });
    const bySubject = await records.hold(TENANT, { subject: "person:ada" }, "litigation", "counsel");
    const refused = await thrown(() => records.erase(TENANT, "person:ada"));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toContain(`${bySubject.id}: litigation`);
    expect((await records.list(TENANT, {})).length).toBe(1);
    await records.release(TENANT, bySubject.id, "counsel");
    const byPlugin = await records.hold(TENANT, { plugin: "crm" }, "audit", "counsel");
    expect((await thrown(() => records.erase(TENANT, "person:ada"))).message).toContain(byPlugin.id);
    await records.release(TENANT, byPlugin.id, "counsel");
    expect((await records.erase(TENANT, "person:ada")).versions).toBe(1);
  });

  it("tells each change (a put, retention's removals, an erasure) to the job's object_model_event handlers inside a job's call, else to its listener", async () => {
    const told: unknown[] = [];
    records.onChange(async (_tenant, change) => void told.push(["listener", change]));
    const api = records.forPlugin(TENANT, "crm");
    await api.put("contact", "old", "from last year", { subject: "person:ada" });
    await age("crm", "contact", "old", 400);
    await records.setRetention(TENANT, "crm", "contact", 365, "ops");
    await api.put("contact", "c-2", "kept", { subject: "person:ada" });
    const bus = {
      has: (hook: string) => hook === "object_model_event",
      fire: async (hook: string, fields: Record<string, unknown>) => {
        told.push([hook, fields]);
        return { ok: true as const, payload: fields, changed: false };
      },
    };
    await inCallScope({ tenant: TENANT, jobId: "job-1", callId: "1.1", bus }, () =>
      api.put("contact", "c-3", "in a job", { subject: "person:bob" }),
    );
    await records.erase(TENANT, "person:ada");
    expect(told).toEqual([
      [
        "listener",
        { action: "put", plugin: "crm", kind: "contact", key: "old", version: 1, subject: "person:ada" },
      ],
      ["listener", { action: "expire", plugin: "crm", kind: "contact", removed: 1 }],
      [
        "listener",
        { action: "put", plugin: "crm", kind: "contact", key: "c-2", version: 1, subject: "person:ada" },
      ],
      [
        "object_model_event",
        { action: "put", plugin: "crm", kind: "contact", key: "c-3", version: 1, subject: "person:bob" },
      ],
      ["listener", { action: "erase", subject: "person:ada", removed: 1 }],
    ]);
  });

  it("refuses a hold that covers nothing a person could name, or a key without its kind", async () => {
    expect((await thrown(() => records.hold(TENANT, {}, "why", "me"))).message).toMatch(
      /plugin, the subject, or both/,
    );
    expect(
      (await thrown(() => records.hold(TENANT, { plugin: "crm", key: "k" }, "why", "me"))).message,
    ).toMatch(/names the kind/);
    expect((await thrown(() => records.hold(TENANT, { plugin: "crm" }, " ", "me"))).message).toMatch(
      /needs a reason/,
    );
  });
});
