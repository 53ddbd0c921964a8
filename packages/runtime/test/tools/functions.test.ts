import { isOz0Error } from "@oz0/sdk";
import { testCall } from "@oz0/sdk/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { FunctionResolver } from "../../src/tools/index.js";
import { DirSource, fixture } from "../jobs/dir-source.js";

let helpdesk: DirSource;
let clashing: DirSource;
beforeAll(async () => {
  helpdesk = await DirSource.load([fixture("helpdesk"), fixture("clash-a")]);
  clashing = await DirSource.load([fixture("clash-a"), fixture("clash-b")]);
});

const options = { tenant: "default", home: "/tmp/oz0-home" };

describe("resolving functions", () => {
  it("reads a bare <tool>.<function> as the function of the plugin it is written in", async () => {
    const resolved = await new FunctionResolver(helpdesk, options).resolve("tickets.lookup", "helpdesk");
    expect(resolved.kind).toBe("function");
    if (resolved.kind !== "function") return;
    expect(resolved.fn).toMatchObject({
      address: "helpdesk/tickets.lookup",
      plugin: "helpdesk",
      modelName: "tickets__lookup",
      description: "Look a ticket up by id.",
    });
    expect(await resolved.fn.run({ id: 7 }, testCall())).toMatchObject({ id: 7 });
  });

  it("reads another plugin's function by its address", async () => {
    const resolved = await new FunctionResolver(helpdesk, options).resolve("clash-a/shared.ping", "helpdesk");
    expect(resolved).toMatchObject({
      kind: "function",
      fn: { address: "clash-a/shared.ping", modelName: "shared__ping" },
    });
  });

  it("reads oz.* as a built-in, owned by no plugin", async () => {
    const resolved = await new FunctionResolver(helpdesk, options).resolve("oz.fail", "helpdesk");
    expect(resolved).toEqual({ kind: "builtin", address: { kind: "builtin", tool: "oz", function: "fail" } });
  });

  it("refuses an address that names a plugin not owning the tool, naming the owner", async () => {
    const error = await new FunctionResolver(helpdesk, options)
      .resolve("clash-a/tickets.lookup")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "OWNER_MISMATCH")).toBe(true);
    expect((error as Error).message).toBe(
      "clash-a/tickets.lookup is not a function of clash-a: tickets.lookup is helpdesk's",
    );
  });

  it("refuses a tool that two plugins provide, with TOOL_CLASH", async () => {
    const error = await new FunctionResolver(clashing, options)
      .resolve("shared.ping", "clash-a")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "TOOL_CLASH")).toBe(true);
    expect((error as { data: unknown }).data).toEqual({ tool: "shared", plugins: ["clash-a", "clash-b"] });
  });

  it("says which functions a tool has when the one asked for is missing", async () => {
    const error = await new FunctionResolver(helpdesk, options)
      .resolve("tickets.close", "helpdesk")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "NOT_FOUND")).toBe(true);
    expect((error as Error).message).toContain("(its functions: lookup, assign)");
  });

  it("refuses a tool no plugin of the tenant provides", async () => {
    const error = await new FunctionResolver(helpdesk, options)
      .resolve("github/oz0_github.get_file")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "NOT_FOUND")).toBe(true);
    expect((error as Error).message).toContain("no plugin of tenant default provides tool oz0_github");
  });

  it("builds each tool once per resolver", async () => {
    const resolver = new FunctionResolver(helpdesk, options);
    const a = await resolver.resolve("tickets.lookup", "helpdesk");
    const b = await resolver.resolve("tickets.lookup", "helpdesk");
    expect(a.kind === "function" && b.kind === "function" && a.fn.inputSchema === b.fn.inputSchema).toBe(
      true,
    );
  });
});
