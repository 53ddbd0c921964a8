// `oz0 plugin update` and `oz0 plugin remove` refuse to take away an agent a job that has not
// ended runs as, naming the job; forced with a reason, the job fails part_removed when it next runs.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithVault, VAULT } from "./governance-helpers.js";

let run: Awaited<ReturnType<typeof homeWithVault>>["run"];
let cleanup: () => Promise<void>;
let root: string;
/** The vault plugin at 1.1.0 with its agent keeper renamed warden. */
let renamed: string;

beforeAll(async () => {
  ({ run, cleanup } = await homeWithVault());
  root = await mkdtemp(join(tmpdir(), "oz0-renamed-"));
  renamed = join(root, "vault");
  await cp(VAULT, renamed, { recursive: true });
  const manifest = join(renamed, "plugin.yaml");
  await writeFile(
    manifest,
    (await readFile(manifest, "utf8"))
      .replace("version: 1.0.0", "version: 1.1.0")
      .replace("name: keeper", "name: warden")
      .replace("allow: [keeper]", "allow: [warden]"),
  );
  await run("policy", "ask", "vault/vault.write");
});
afterAll(async () => {
  await cleanup();
  await rm(root, { recursive: true, force: true });
});

describe("oz0 plugin update with a job that has not ended", () => {
  it("refuses to rename the job's agent, naming the job; forced, the job fails part_removed", async () => {
    const ran = await run("run", "vault/keeper", "open it", "--json");
    expect(ran.code).toBe(2);
    const job = ran.json<{ id: string }>().id;
    const refused = await run("plugin", "update", renamed);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "jobs that have not ended run as parts it would take away:\n" +
        `  - agent vault/keeper: job ${job} (waiting)\n`,
    );
    expect((await run("plugin", "list", "--json")).json()).toContainEqual(
      expect.objectContaining({ name: "vault", version: "1.0.0" }),
    );
    const forced = await run("plugin", "update", renamed, "--force", "--reason", "keeper is warden now");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(
      `forced: keeper is warden now\n  job ${job} (waiting) of vault/keeper fails (part_removed) when it next runs`,
    );
    const [approval] = (await run("approval", "list", "--json")).json<{ id: string }[]>();
    await run("approval", "approve", approval!.id);
    expect((await run("job", "get", job, "--json")).json()).toMatchObject({
      status: "failed",
      failure: { kind: "part_removed", code: "NOT_FOUND" },
    });
  });
});
