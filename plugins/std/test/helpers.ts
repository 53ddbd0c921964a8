// Loads the std plugin the way oz0 does (its setup against a recording host) with a fixed
// clock, and calls its functions through the SDK's testing helpers.
import { callFunction, loadPluginForTest } from "@oz0/sdk/testing";
import { createStdPlugin, type StdPluginOptions } from "../src/index.js";

export type StdHost = Awaited<ReturnType<typeof loadPluginForTest>>;

/** 2026-04-11T13:00:31.566Z, the instant the spec's examples show. */
export const FIXED_NOW = Date.UTC(2026, 3, 11, 13, 0, 31, 566);

export async function loadStd(options: StdPluginOptions = {}): Promise<StdHost> {
  return loadPluginForTest(createStdPlugin({ datetime: { now: () => FIXED_NOW }, ...options }), {
    pluginId: "std",
  });
}

/** Calls `<tool>.<function>` with `args`, under the plugin config `config`. */
export async function call(
  host: StdHost,
  name: string,
  args: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): Promise<unknown> {
  return callFunction(host, name, args, { context: { config } });
}

/** The Oz0Error (or other error) a call throws; fails the test when it does not throw. */
export async function callError(
  host: StdHost,
  name: string,
  args: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): Promise<Error & { code?: string; data?: Record<string, unknown> }> {
  try {
    await call(host, name, args, config);
  } catch (error) {
    return error as Error & { code?: string; data?: Record<string, unknown> };
  }
  throw new Error(`${name} did not fail`);
}
