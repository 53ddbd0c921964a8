// The CLI prints every error in the SDK's one error shape; --server is the user's mistake
// until oz0 has an HTTP client.
import { stat } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

describe("--server", () => {
  it("is refused as NOT_SUPPORTED, the user's to change, saying this oz0 has no HTTP client yet", async () => {
    const result = await oz0(["plugin", "list", "--server", "https://oz0.example", "--json", "--home", home]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: "NOT_SUPPORTED",
        message:
          "--server https://oz0.example: this oz0 has no HTTP client yet; run the command without --server to use the embedded runtime",
        data: { feature: "--server" },
        side: "user",
        status: 400,
        retryable: false,
      },
    });
  });

  it("is refused by commands that never open the runtime too, before they do anything", async () => {
    const target = `${home}/never-made`;
    for (const args of [
      ["init", target],
      ["plugin", "lint", "examples/support-triage"],
    ]) {
      const result = await oz0([...args, "--server", "https://oz0.example", "--json"]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr).error).toMatchObject({
        code: "NOT_SUPPORTED",
        data: { feature: "--server" },
      });
    }
    await expect(stat(target)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("an error on stderr", () => {
  it("carries its code's side, HTTP status and retryable flag with --json, and only the message as text", async () => {
    const json = await oz0(["job", "get", "j_nosuchjob", "--json", "--home", home]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { code: "NOT_FOUND", side: "user", status: 404, retryable: false },
    });
    expect(JSON.parse(json.stderr).error).not.toHaveProperty("stack");
    const text = await oz0(["job", "get", "j_nosuchjob", "--home", home]);
    expect(text.stderr).toBe(`oz0: ${JSON.parse(json.stderr).error.message}\n`);
  });

  it("shows the stack only in development (OZ0_DEV=1)", async () => {
    try {
      vi.stubEnv("OZ0_DEV", "1");
      const json = await oz0(["job", "get", "j_nosuchjob", "--json", "--home", home]);
      expect(JSON.parse(json.stderr).error.stack).toMatch(/^Oz0Error: .*\n\s+at /);
      const text = await oz0(["job", "get", "j_nosuchjob", "--home", home]);
      expect(text.stderr).toMatch(/^oz0: .*\nOz0Error: .*\n\s+at /);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
