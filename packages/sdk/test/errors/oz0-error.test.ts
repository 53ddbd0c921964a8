// The error class across copies of the SDK, the codes a server answers with, and the one
// public error shape.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ERROR_CODES,
  type ErrorCode,
  errorShape,
  isOz0Error,
  Oz0Error,
  PolicyViolation,
  toOz0Error,
} from "../../src/index.js";

type ErrorsModule = typeof import("../../src/errors/index.js");

/**
 * A second copy of the SDK's errors, as a plugin that bundles its own SDK brings one: the same
 * source in another folder, so its classes are not this copy's.
 */
let second: ErrorsModule;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "oz0-sdk-copy-"));
  await cp(new URL("../../src/errors/", import.meta.url), join(folder, "errors"), { recursive: true });
  second = (await import(pathToFileURL(join(folder, "errors", "index.ts")).href)) as ErrorsModule;
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("an Oz0Error from another copy of the SDK", () => {
  it("is one of this copy's too, and keeps its code, message and data through toOz0Error", () => {
    expect(second.Oz0Error).not.toBe(Oz0Error);
    const foreign = new second.Oz0Error("NOT_FOUND", "there is no plugin notes", {
      data: { kind: "plugin", name: "notes" },
    });
    expect(foreign instanceof Oz0Error).toBe(false);
    expect(isOz0Error(foreign)).toBe(true);
    expect(isOz0Error(foreign, "NOT_FOUND")).toBe(true);
    expect(isOz0Error(foreign, "INTERNAL")).toBe(false);
    const here = toOz0Error(foreign);
    expect(here).toBeInstanceOf(Oz0Error);
    expect(here).toMatchObject({
      code: "NOT_FOUND",
      message: "there is no plugin notes",
      side: "user",
      status: 404,
    });
    expect(here.data).toEqual({ kind: "plugin", name: "notes" });
    expect(here.cause).toBe(foreign);
    expect(errorShape(foreign, {}).error.code).toBe("NOT_FOUND");
  });

  it("is told by its brand, also as a subclass with a name of its own", () => {
    class Refusal extends second.Oz0Error {}
    const refusal = new Refusal("POLICY_VIOLATION", "budget refused: over the ceiling");
    expect(refusal.name).toBe("Refusal");
    expect(isOz0Error(refusal, "POLICY_VIOLATION")).toBe(true);
    expect(toOz0Error(refusal).code).toBe("POLICY_VIOLATION");
    // And this copy's errors are the second copy's, the other way round.
    expect(second.isOz0Error(new PolicyViolation("budget", "over the ceiling"), "POLICY_VIOLATION")).toBe(
      true,
    );
  });

  it("is INTERNAL when it carries a code this table does not know, or no message", () => {
    const unknown = Object.assign(new second.Oz0Error("NOT_FOUND", "from a newer SDK"), {
      code: "NO_SUCH_CODE",
    });
    expect(isOz0Error(unknown)).toBe(false);
    expect(toOz0Error(unknown)).toMatchObject({ code: "INTERNAL", message: "from a newer SDK" });
    const lookalike = { [Symbol.for("oz0.error")]: true, code: "NOT_FOUND" };
    expect(isOz0Error(lookalike)).toBe(false);
    expect(isOz0Error({ code: "NOT_FOUND", message: "a plain object" })).toBe(false);
  });
});

describe("the table's HTTP statuses and retryable flags", () => {
  it("give a user code a 4xx status and a system code a 5xx one", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const range = info.side === "user" ? [400, 499] : [500, 599];
      expect(info.status, code).toBeGreaterThanOrEqual(range[0] ?? 0);
      expect(info.status, code).toBeLessThanOrEqual(range[1] ?? 0);
    }
  });

  it("have the codes a server needs, and only a rate limit or a service behind oz0 is retryable", () => {
    const rows = (codes: ErrorCode[]) =>
      codes.map((code) => [code, ERROR_CODES[code].status, ERROR_CODES[code].side]);
    expect(rows(["UNAUTHENTICATED", "FORBIDDEN", "NOT_SUPPORTED", "CONFLICT", "TOO_MANY_REQUESTS"])).toEqual([
      ["UNAUTHENTICATED", 401, "user"],
      ["FORBIDDEN", 403, "user"],
      ["NOT_SUPPORTED", 400, "user"],
      ["CONFLICT", 409, "user"],
      ["TOO_MANY_REQUESTS", 429, "user"],
    ]);
    const retryable = Object.entries(ERROR_CODES)
      .filter(([, info]) => info.retryable)
      .map(([code]) => code);
    expect(retryable.sort()).toEqual([
      "HARNESS_FAILED",
      "MCP_SERVER_ERROR",
      "NETWORK_ERROR",
      "TOO_MANY_REQUESTS",
    ]);
    const error = new Oz0Error("TOO_MANY_REQUESTS", "60 runs a minute; wait 12 s", {
      data: { limit: "runs_per_minute", retryAfter: 12 },
    });
    expect([error.status, error.retryable]).toEqual([429, true]);
  });
});

describe("the public error shape", () => {
  it("holds code, message, data, side, status and retryable, and no stack outside development", () => {
    const error = new Oz0Error("JOB_STATE_CONFLICT", "job j1 has ended", {
      data: { job: "j1", status: "succeeded" },
    });
    for (const env of [
      {},
      { NODE_ENV: "production" },
      { NODE_ENV: "test" },
      { OZ0_DEV: "0" },
      { OZ0_DEV: "true" },
    ]) {
      expect(errorShape(error, env)).toEqual({
        error: {
          code: "JOB_STATE_CONFLICT",
          message: "job j1 has ended",
          data: { job: "j1", status: "succeeded" },
          side: "user",
          status: 409,
          retryable: false,
        },
      });
    }
  });

  it("turns anything else thrown into INTERNAL with its message, and leaves data out when there is none", () => {
    expect(errorShape(new TypeError("x is not a function"), {})).toEqual({
      error: {
        code: "INTERNAL",
        message: "x is not a function",
        side: "system",
        status: 500,
        retryable: false,
      },
    });
    expect(errorShape("a string", {}).error).toMatchObject({ code: "INTERNAL", message: "a string" });
  });

  it("adds the stack, with its causes', in development: OZ0_DEV=1 or NODE_ENV=development", () => {
    const cause = new TypeError("x is not a function");
    for (const env of [{ OZ0_DEV: "1" }, { NODE_ENV: "development" }]) {
      const { stack } = errorShape(cause, env).error;
      expect(stack).toMatch(/^Oz0Error: x is not a function\n\s+at /);
      expect(stack).toContain("\ncaused by: TypeError: x is not a function\n");
      expect(stack).toContain("oz0-error.test.ts");
    }
  });

  it("reads development from the process's environment when none is given", () => {
    try {
      vi.stubEnv("NODE_ENV", "production");
      vi.stubEnv("OZ0_DEV", undefined);
      expect(errorShape(new Error("boom")).error.stack).toBeUndefined();
      vi.stubEnv("OZ0_DEV", "1");
      expect(errorShape(new Error("boom")).error.stack).toMatch(/^Oz0Error: boom\n/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
