// The tests' global setup bundles the SDK again after a compile of it, and only then.
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleStaleSdk } from "./build-plugins.mjs";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("the tests' global setup", () => {
  it("bundles the SDK when its compile is newer than its bundle or it has none, and not otherwise", async () => {
    const sdk = await mkdtemp(join(tmpdir(), "oz0-sdk-"));
    made.push(sdk);
    let bundled = 0;
    const bundle = () => {
      bundled += 1;
    };
    // Never compiled: nothing to bundle.
    expect(bundleStaleSdk(sdk, bundle)).toBe(false);
    await writeFile(join(sdk, "tsconfig.tsbuildinfo"), "{}");
    expect(bundleStaleSdk(sdk, bundle)).toBe(true);
    await mkdir(join(sdk, "dist", "bundle"), { recursive: true });
    await writeFile(join(sdk, "dist", "bundle", "index.js"), "");
    const compiledAt = new Date(Date.now() - 60_000);
    await utimes(join(sdk, "tsconfig.tsbuildinfo"), compiledAt, compiledAt);
    expect(bundleStaleSdk(sdk, bundle)).toBe(false);
    const later = new Date(Date.now() + 60_000);
    await utimes(join(sdk, "tsconfig.tsbuildinfo"), later, later);
    expect(bundleStaleSdk(sdk, bundle)).toBe(true);
    expect(bundled).toBe(2);
  });
});
