import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import * as contracts from "../../src/contracts/index.js";
import { isOz0Error } from "../../src/errors/index.js";
import { createRecordingHost } from "../../src/host/index.js";
import { runHook } from "../../src/testing/index.js";
import type { declareClasses } from "./fixtures/decorated.js";

// The fixture uses `@plugin` syntax, which only a real TypeScript build lowers; compile it
// with tsc the way a plugin author's build does (standard decorators, no
// experimentalDecorators), then load the output.
let classes: ReturnType<typeof declareClasses>;
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "oz0-decorators-"));
  const fixture = fileURLToPath(new URL("./fixtures/decorated.ts", import.meta.url));
  const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  execFileSync(
    process.execPath,
    [
      tsc,
      fixture,
      "--outDir",
      outDir,
      "--target",
      "es2023",
      "--module",
      "esnext",
      "--noCheck",
      "--skipLibCheck",
      "--noResolve",
    ],
    { cwd: outDir, stdio: "pipe" },
  );
  writeFileSync(join(outDir, "package.json"), '{ "type": "module" }');
  const compiled = (await import(pathToFileURL(join(outDir, "decorated.js")).href)) as {
    declareClasses: typeof declareClasses;
  };
  classes = compiled.declareClasses({ ...contracts, z });
});

afterAll(() => {
  if (outDir !== undefined) rmSync(outDir, { recursive: true, force: true });
});

describe("@plugin as a standard decorator compiled by tsc", () => {
  test("infers plugin_id and implements from a bare @plugin", () => {
    expect(classes.DateTimeTool.pluginId).toBe("date_time@v1");
    expect(classes.DateTimeTool.implements).toEqual(["tool"]);
    expect(contracts.isPluginClass(classes.DateTimeTool)).toBe(true);
  });

  test("takes requires and governedBy from @plugin({ … })", () => {
    expect(classes.RateLimitedTool.pluginId).toBe("rate_limited@v1");
    expect(classes.RateLimitedTool.requires).toEqual(["recorder"]);
    expect(classes.RateLimitedTool.governedBy).toEqual(["budget"]);
  });

  test("lets static pluginId and implements on the class take precedence", () => {
    expect(classes.MyTool.pluginId).toBe("my_custom_id@v3");
    expect(classes.MyTool.implements).toEqual(["tool", "custom"]);
  });

  test("collects every contract of a multi-contract plugin", () => {
    expect(classes.SmartMemoryTool.implements).toEqual(["tool", "memory"]);
  });

  test("registers decorated classes through the host", async () => {
    const host = createRecordingHost("std");
    host.addContract(classes.DateTimeTool);
    host.addContract(classes.RateLimitedTool, { tool: "date_time" });
    host.addContract(classes.BudgetGovernance);
    expect(host.kinds()).toEqual(["tool", "hook"]);
    await expect(runHook(host, "pre_llm_call", llmCall(5000))).rejects.toSatisfy((error) =>
      isOz0Error(error, "POLICY_VIOLATION"),
    );
    await expect(runHook(host, "pre_llm_call", llmCall(10))).resolves.toMatchObject({
      estimatedInputTokens: 10,
    });
  });
});

function llmCall(estimatedInputTokens: number) {
  return {
    tenant: "default",
    step: 1,
    model: "test:x",
    messages: [],
    tools: [],
    settings: {},
    estimatedInputTokens,
  };
}
