import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { Audit, mask } from "../../src/audit/index.js";
import { localAdmin } from "../../src/callers/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

describe("masking", () => {
  it("masks every field whose name says it holds a credential, at any depth", () => {
    expect(
      mask({
        name: "ci",
        password: "hunter2",
        apiKey: "k",
        nested: { token: "t", list: [{ client_secret: "s", keep: 1 }] },
      }),
    ).toEqual({
      name: "ci",
      password: "[secret]",
      apiKey: "[secret]",
      nested: { token: "[secret]", list: [{ client_secret: "[secret]", keep: 1 }] },
    });
  });
});

describe.each(fixtures)("the audit log on $label", (fixture) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await fixture.fresh());
    return () => store.close();
  });

  it("records a service's change event through onChange, with who, what and when, and never a secret", async () => {
    const audit = new Audit(store);
    const caller = localAdmin("default", "cli:root");
    const before = await store.now();
    await audit.onChange({
      caller,
      action: "policy.set",
      target: "acme/*",
      detail: { action: "deny", secret: "s3cr3t-value" },
    });
    const [entry] = await audit.list(caller);
    expect(entry).toMatchObject({
      tenant: "default",
      actor: "cli:root",
      role: "admin",
      action: "policy.set",
      target: "acme/*",
      detail: { action: "deny", secret: "[secret]" },
    });
    expect(entry!.at).toBeGreaterThanOrEqual(before);
    const rows = JSON.stringify(await store.db.selectFrom("audit_log").selectAll().execute());
    expect(rows).not.toContain("s3cr3t-value");
  });

  it("shows a tenant's admins their tenant's entries alone", async () => {
    const audit = new Audit(store);
    await store.db.insertInto("tenants").values({ name: "other", created_at: 1 }).execute();
    await audit.record({ caller: localAdmin("default", "cli:a"), action: "x.one", target: "t" });
    await audit.record({ caller: localAdmin("other", "cli:b"), action: "x.two", target: "t" });
    expect((await audit.list(localAdmin("default"))).map((entry) => entry.action)).toEqual(["x.one"]);
    expect((await audit.list(localAdmin("other"))).map((entry) => entry.action)).toEqual(["x.two"]);
  });

  it("refuses to list the log of a tenant that does not exist", async () => {
    await expect(new Audit(store).list(localAdmin("nowhere"))).rejects.toThrow(
      "tenant nowhere does not exist.",
    );
  });
});
