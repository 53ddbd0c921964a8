// The CLI prints every error in the SDK's one error shape, a command that cannot go through a
// server refusing --server included.
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
  it("is refused by a command that runs only on this machine, naming it and why, before it does anything", async () => {
    const target = `${home}/never-made`;
    for (const args of [
      ["init", target],
      ["plugin", "lint", "examples/support-triage"],
    ]) {
      const result = await oz0([...args, "--server", "https://oz0.example", "--json"]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr).error).toMatchObject({
        code: "NOT_SUPPORTED",
        message: expect.stringMatching(
          new RegExp(
            `^oz0 ${args.slice(0, -1).join(" ")} does not go through a server \\(--server https://oz0.example\\): `,
          ),
        ),
        data: { feature: "--server", command: `oz0 ${args.slice(0, -1).join(" ")}` },
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
