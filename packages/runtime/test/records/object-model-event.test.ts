// A change to a tenant's records made outside any job (an operator's erasure) reaches the
// object_model_event handlers of the tenant's plugins, as the runtime wires them.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

let runtime: Runtime;
beforeAll(async () => {
  runtime = await Runtime.open({
    home: await mkdtemp(join(tmpdir(), "oz0-omev-")),
    memory: true,
    defaultPlugins: [],
  });
});
afterAll(() => runtime.close());

it("tells an operator's erasure to the tenant's object_model_event handlers", async () => {
  const dir = await mkdtemp(join(tmpdir(), "oz0-omev-plugin-"));
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: watcher\nversion: 1.0.0\ndescription: Watches records.\nmain: index.js\ncapabilities: [hook]\n",
  );
  // The plugin's module is its own instance, so what it hears is left where the test can read it.
  await writeFile(
    join(dir, "index.js"),
    `export default {
  setup(host) {
    host.addHook({
      name: "watch",
      build: () => ({ object_model_event: (p) => void (globalThis.oz0ObjectModelEvents ??= []).push(p) }),
    });
  },
};
`,
  );
  await runtime.catalog.install("default", dir);
  await runtime.catalog.records.put(
    "default",
    { plugin: "crm", kind: "contact", key: "c-1" },
    "Ada",
    "person:ada",
  );
  await runtime.catalog.records.erase("default", "person:ada");
  const heard = (globalThis as { oz0ObjectModelEvents?: { action: string }[] }).oz0ObjectModelEvents ?? [];
  expect(heard.map((payload) => payload.action)).toEqual(["put", "erase"]);
  expect(heard[1]).toMatchObject({
    hook: "object_model_event",
    tenant: "default",
    action: "erase",
    subject: "person:ada",
    removed: 1,
  });
});

it("keeps what the object_model_event handlers of a change outside any job recorded in the audit log", async () => {
  const dir = await mkdtemp(join(tmpdir(), "oz0-omev-failing-"));
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: grumbler\nversion: 1.0.0\ndescription: Fails on records.\nmain: index.js\ncapabilities: [hook]\n",
  );
  await writeFile(
    join(dir, "index.js"),
    `export default {
  setup(host) {
    host.addHook({
      name: "grumble",
      build: () => ({ object_model_event: (p) => { throw new Error("cannot index " + p.action); } }),
    });
  },
};
`,
  );
  await runtime.catalog.install("omev", dir);
  await runtime.catalog.records.put(
    "omev",
    { plugin: "crm", kind: "contact", key: "c-2" },
    "Bea",
    "person:bea",
  );
  await runtime.catalog.records.erase("omev", "person:bea");
  const entries = await runtime.audit.list(localAdmin("omev"), { action: "hooks.record" });
  expect(
    entries.reverse().map((entry) => [entry.actor, entry.target, entry.detail.outcome, entry.detail.events]),
  ).toEqual([
    [
      "records",
      "crm/contact",
      "put",
      [
        {
          kind: "hook_error",
          data: {
            hook: "object_model_event",
            plugin: "grumbler",
            error: "cannot index put",
            handler: "grumble",
            required: false,
          },
        },
      ],
    ],
    [
      "records",
      "subject:person:bea",
      "erase",
      [
        {
          kind: "hook_error",
          data: {
            hook: "object_model_event",
            plugin: "grumbler",
            error: "cannot index erase",
            handler: "grumble",
            required: false,
          },
        },
      ],
    ],
  ]);
});
