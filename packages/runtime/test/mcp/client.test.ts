// oz0 as an MCP client: a plugin's tool backed by a real MCP server from npm, listed in the
// catalog and called on the dispatch path, its answers mapped to function results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.js";
import { everythingStdio, FILESYSTEM, openRuntime, tempDir, writePlugin, yamlList } from "./helpers.js";

const TENANT = "default";

describe("a tool backed by server-everything over stdio", () => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await tempDir("oz0-mcp-");
    cleanup = temp.cleanup;
    runtime = await openRuntime(temp.dir);
    const dir = await writePlugin(
      temp.dir,
      "demo",
      [
        "name: demo",
        "version: 1.0.0",
        "tools:",
        "  - id: everything",
        "    description: The MCP reference server.",
        `    mcp: ${everythingStdio()}`,
      ].join("\n"),
    );
    await runtime.catalog.install(TENANT, dir);
  });

  afterAll(async () => {
    await runtime.close();
    await cleanup();
  });

  it("lists each tool of the server as a function of the tool ID in the catalog", async () => {
    const entries = await runtime.catalog.entries(TENANT);
    const functions = entries.filter((entry) => entry.kind === "function").map((entry) => entry.address);
    expect(functions).toContain("demo/everything.echo");
    expect(functions).toContain("demo/everything.get-sum");
    const echo = entries.find((entry) => entry.address === "demo/everything.echo");
    expect(echo?.modelName).toBe("everything__echo");
    expect(echo?.description).toBe("Echoes back the input string");
  });

  it("shows the functions in plugin inspect, under their tool", async () => {
    const detail = await runtime.catalog.inspect(TENANT, "demo");
    const tool = detail.tools.find((entry) => entry.address === "demo/everything");
    expect(tool?.source).toBe("mcp");
    expect(tool?.functions.map((fn) => fn.address)).toContain("demo/everything.get-tiny-image");
  });

  it("looks one function up by address", async () => {
    const entry = await runtime.catalog.lookup(TENANT, "demo/everything.get-sum");
    expect(entry).toMatchObject({ kind: "function", modelName: "everything__get-sum", bare: false });
    await expect(runtime.catalog.lookup(TENANT, "demo/everything.nope")).rejects.toThrow(
      /lists no function nope \(its functions: .*echo/,
    );
  });

  it("maps a text answer to the text", async () => {
    const report = await runtime.tools.call(TENANT, "demo/everything.echo", { message: "hello" });
    expect(report).toMatchObject({ ok: true, result: "Echo: hello", modelName: "everything__echo" });
  });

  it("maps structured content to the structured content", async () => {
    const report = await runtime.tools.call(TENANT, "demo/everything.get-structured-content", {
      location: "Chicago",
    });
    expect(report.result).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
  });

  it("keeps an image as its content block, with its data and MIME type", async () => {
    const report = await runtime.tools.call(TENANT, "demo/everything.get-tiny-image", {});
    const content = (report.result as { content: { type: string; mimeType?: string; data?: string }[] })
      .content;
    const image = content.find((block) => block.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(image?.data).toMatch(/^iVBOR/);
    expect(content.some((block) => block.type === "text")).toBe(true);
  });

  it("checks the arguments against the server's input schema before calling it", async () => {
    const report = await runtime.tools.call(TENANT, "demo/everything.get-sum", { a: 1 });
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("INVALID_INPUT");
    expect(report.error?.message).toMatch(/everything__get-sum .*required property 'b'/);
  });

  it("starts the server once and keeps it for later calls", async () => {
    await runtime.tools.call(TENANT, "demo/everything.get-sum", { a: 2, b: 3 });
    const [status] = runtime.mcp.status();
    expect(status).toMatchObject({ tool: "demo/everything", state: "ready", starts: 1 });
    expect(status?.pid).toBeGreaterThan(0);
  });
});

describe("a tool backed by server-filesystem, confined to a folder", () => {
  let runtime: Runtime;
  let root: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await tempDir("oz0-mcp-fs-");
    cleanup = temp.cleanup;
    root = `${temp.dir}/files`;
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(root);
    await writeFile(`${root}/note.txt`, "first line\nsecond line\n");
    runtime = await openRuntime(temp.dir);
    const dir = await writePlugin(
      temp.dir,
      "files",
      [
        "name: files",
        "version: 1.0.0",
        "tools:",
        "  - id: fs",
        `    mcp: { command: ${JSON.stringify(process.execPath)}, args: ${yamlList([FILESYSTEM, root])} }`,
      ].join("\n"),
    );
    await runtime.catalog.install(TENANT, dir);
  });

  afterAll(async () => {
    await runtime.close();
    await cleanup();
  });

  it("reads and writes files inside its folder", async () => {
    const read = await runtime.tools.call(TENANT, "files/fs.read_text_file", { path: `${root}/note.txt` });
    expect(read.ok).toBe(true);
    expect(JSON.stringify(read.result)).toContain("second line");
    const written = await runtime.tools.call(TENANT, "files/fs.write_file", {
      path: `${root}/new.txt`,
      content: "made by oz0",
    });
    expect(written.ok).toBe(true);
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(`${root}/new.txt`, "utf8")).toBe("made by oz0");
  });

  it("turns the server's error answer (isError) into MCP_TOOL_ERROR with the tool's text", async () => {
    const report = await runtime.tools.call(TENANT, "files/fs.read_text_file", { path: "/etc/hostname" });
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("MCP_TOOL_ERROR");
    expect(report.error?.message).toMatch(/^files\/fs\.read_text_file answered with an error: .*denied/i);
  });

  it("names the functions the server lists when a function does not exist", async () => {
    await expect(runtime.tools.call(TENANT, "files/fs.format_disk", {})).rejects.toThrow(
      /tool fs of files has no function format_disk \(its functions: .*read_text_file/,
    );
  });
});
