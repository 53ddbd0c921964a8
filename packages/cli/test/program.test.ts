// A command line whose first word names a group of commands builds that group alone: what it
// prints must be what the whole tree prints.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { helpPages } from "../src/help-pages.js";
import { Output } from "../src/output.js";
import { buildProgram, GROUPS, HELP_WIDTH, runCli } from "../src/program.js";

/** What `argv` prints through `program`, and how commander ends it (help, a refusal, an action). */
async function printedBy(build: (out: Output) => Command, argv: string[]): Promise<string> {
  let text = "";
  const write = (chunk: string) => {
    text += chunk;
  };
  try {
    await build(new Output(write, write)).parseAsync(argv, { from: "user" });
    return `${text}\nran`;
  } catch (thrown) {
    const { code, message } = thrown as { code?: string; message: string };
    return `${text}\n${code}: ${message}`;
  }
}

describe("the command tree", () => {
  it("lists every top-level command in its groups, in the order help shows them", () => {
    const whole = buildProgram(new Output());
    expect(whole.commands.map((command) => [command.name(), ...command.aliases()])).toEqual(
      GROUPS.flatMap(([names]) => {
        const built = buildProgram(new Output(), undefined, names[0]);
        return built.commands.map((command) => [command.name(), ...command.aliases()]);
      }),
    );
    for (const [names] of GROUPS) {
      for (const name of names) {
        const built = buildProgram(new Output(), undefined, name);
        expect(built.commands.flatMap((command) => [command.name(), ...command.aliases()])).toEqual(names);
      }
    }
    expect(buildProgram(new Output(), undefined, "help").commands).toHaveLength(whole.commands.length);
    expect(buildProgram(new Output(), undefined, "--json").commands).toHaveLength(whole.commands.length);
    expect(buildProgram(new Output(), undefined, "nosuch").commands).toHaveLength(whole.commands.length);
  });

  it("prints every help page and refusal of a group's command line as the whole tree does", async () => {
    const rendering = { width: HELP_WIDTH, helpOnly: true } as const;
    const { lines } = await helpPages();
    const refused = [
      ["job", "search", "--limit", "abc"],
      ["job", "serch"],
      ["run"],
      ["run", "a/b", "--bogus"],
      ["plugin", "install"],
      ["worker", "--nosuch"],
      ["revive", "x", "y", "z"],
    ];
    for (const argv of [...Object.keys(lines).map((line) => line.split("\0")), ...refused]) {
      const whole = await printedBy((out) => buildProgram(out, rendering), argv);
      const alone = await printedBy((out) => buildProgram(out, rendering, argv[0]), argv);
      expect(alone, `oz0 ${argv.join(" ")}`).toBe(whole);
    }
    // Through runCli, which builds the group alone, a refusal still names its command.
    let said = "";
    const out = new Output(
      () => {},
      (text) => {
        said += text;
      },
    );
    expect(await runCli(["job", "search", "--limit", "abc"], out)).toBe(1);
    expect(said).toMatch(/--limit abc: .*; oz0 job search --help shows its usage/);
  });
});
