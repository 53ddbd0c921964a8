// The help oz0 prints for each command line that asks for nothing but help (`oz0 --help`, `oz0
// job search -h`, `oz0 help job`, a bare `oz0` or `oz0 job`), rendered by commander from the
// command tree itself. The build stores them (scripts/bundle-cli.mjs writes dist/help.json) and
// bin/oz0.js prints a stored page without loading commander or the command tree, which cost
// more than Node's own start; whatever else is asked, or help for a terminal narrower than the
// pages were rendered for, goes to commander as before.
import type { Command } from "commander";
import { Output } from "./output.js";
import { buildProgram, HELP_WIDTH, type HelpRendering, runCli } from "./program.js";

const RENDERING: HelpRendering = { width: HELP_WIDTH, helpOnly: true };

export interface HelpPages {
  /** The width the pages are wrapped to: the bin prints them to a stream at least this wide. */
  readonly width: number;
  /** Each command line, its words joined by NUL, and what oz0 does with it: [exit code, 1 for stdout or 2 for stderr, the page]. */
  readonly lines: Record<string, [number, 1 | 2, number]>;
  readonly pages: string[];
}

/** Runs every command line that prints only help through the command line itself, and keeps what it printed. */
export async function helpPages(): Promise<HelpPages> {
  const result: HelpPages = { width: HELP_WIDTH, lines: {}, pages: [] };
  const paths = commandPaths(buildProgram(new Output(), RENDERING), []);
  const helpForms = paths.flatMap(({ words }) => [
    [...words, "--help"],
    [...words, "-h"],
  ]);
  const groupForms = paths
    .filter(({ command }) => command.commands.length > 0)
    .flatMap(({ command, words }) => [
      words,
      [...words, "help"],
      ...command.commands.flatMap((sub) =>
        [sub.name(), ...sub.aliases()].map((name) => [...words, "help", name]),
      ),
    ]);
  const pages = new Map<string, number>();
  for (const argv of helpForms) {
    const { code, stream, text } = await printed(argv);
    if (code !== 0 || stream !== 1 || !text.startsWith("Usage: oz0")) {
      throw new Error(`oz0 ${argv.join(" ")} printed no help page`);
    }
    if (!pages.has(text)) pages.set(text, pages.size);
    result.lines[argv.join("\0")] = [code, stream, pages.get(text)!];
  }
  // A group's bare name and `help` print one of the pages `--help` prints; a line that printed
  // anything else (a group that runs an action of its own, refused here) is not stored.
  for (const argv of groupForms) {
    const { code, stream, text } = await printed(argv);
    const page = pages.get(text);
    if (page !== undefined) result.lines[argv.join("\0")] = [code, stream, page];
  }
  result.pages.push(...pages.keys());
  return result;
}

/** Every command's path from the program, under each of its names and aliases. */
function commandPaths(command: Command, words: string[]): { command: Command; words: string[] }[] {
  return [
    { command, words },
    ...command.commands.flatMap((sub) =>
      [sub.name(), ...sub.aliases()].flatMap((name) => commandPaths(sub, [...words, name])),
    ),
  ];
}

async function printed(argv: string[]): Promise<{ code: number; stream: 1 | 2; text: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    argv,
    new Output(
      (text) => {
        stdout += text;
      },
      (text) => {
        stderr += text;
      },
    ),
    RENDERING,
  );
  if (stdout !== "" && stderr !== "") throw new Error(`oz0 ${argv.join(" ")} printed on stdout and stderr`);
  return stderr === "" ? { code, stream: 1, text: stdout } : { code, stream: 2, text: stderr };
}
