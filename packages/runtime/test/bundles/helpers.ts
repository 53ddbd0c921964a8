// What the bundle suites that run on every engine share: the engines' fixtures, and temporary
// folders, all removed once the suite is done.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { disposeFixtures, type EngineFixture, engineFixtures } from "../store/engines.js";

export function engineSuite(name: string): {
  fixtures: EngineFixture[];
  temp: (prefix: string) => Promise<string>;
} {
  const fixtures = engineFixtures();
  const made: string[] = [];
  afterAll(async () => {
    await disposeFixtures(fixtures);
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    fixtures,
    temp: async (prefix) => {
      const dir = await mkdtemp(join(tmpdir(), `oz0-${name}-${prefix}-`));
      made.push(dir);
      return dir;
    },
  };
}
