// The oz0 command tree. Commands parse their arguments, call the runtime, and print; they add
// no behaviour of their own, so the HTTP API and the CLI always agree. Building the tree loads
// neither the runtime nor the SDK: a command's action loads them when it runs, so `--version`
// and `--help` cost little more than Node's own start.
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerApproval } from "./commands/approval.js";
import { registerAudit } from "./commands/audit.js";
import { registerCatalog } from "./commands/catalog.js";
import { registerChannel } from "./commands/channel.js";
import { registerChat } from "./commands/chat.js";
import { registerInit } from "./commands/init.js";
import { registerInventory } from "./commands/inventory.js";
import { registerJob } from "./commands/job.js";
import { registerKey } from "./commands/key.js";
import { registerKill } from "./commands/kill.js";
import { registerMcp } from "./commands/mcp.js";
import { registerMember } from "./commands/member.js";
import { registerModel } from "./commands/model.js";
import { registerNode } from "./commands/node.js";
import { registerPlugin } from "./commands/plugin.js";
import { registerPolicy } from "./commands/policy.js";
import { registerProvider } from "./commands/provider.js";
import { registerRecords } from "./commands/records.js";
import { registerRemote } from "./commands/remote.js";
import { registerRoutine } from "./commands/routine.js";
import { registerRun } from "./commands/run.js";
import { registerServe } from "./commands/serve.js";
import { registerSkill } from "./commands/skill.js";
import { registerTenant } from "./commands/tenant.js";
import { registerTool } from "./commands/tool.js";
import { registerUser } from "./commands/user.js";
import { invalidInput } from "./errors.js";
import { localOnlyReason } from "./local-only.js";
import { type GlobalOptions, Output } from "./output.js";

/** The CLI's version, from its package.json (next to both src/ and dist/). */
const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * The width help is wrapped to: a terminal's own when narrower, else 80 columns, so that the
 * help pages stored at build time (help-pages.ts, rendered at 80) are what commander prints
 * wherever the output is at least that wide.
 */
export const HELP_WIDTH = 80;

function helpWidth(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns > 0 ? Math.min(stream.columns, HELP_WIDTH) : HELP_WIDTH;
}

/**
 * How the help pages are rendered (help-pages.ts): `width` is the help's whatever the terminal,
 * and with `helpOnly` no command's action runs (the line is refused instead).
 */
export interface HelpRendering {
  readonly width: number;
  readonly helpOnly: true;
}

/**
 * The command tree's top-level groups, in the order help lists them, each by the names and
 * aliases it adds to the tree.
 */
export const GROUPS: readonly (readonly [
  names: readonly string[],
  register: (program: Command, out: Output) => void,
])[] = [
  [["init"], registerInit],
  [["plugin"], registerPlugin],
  [["catalog"], registerCatalog],
  [["run"], registerRun],
  [["node", "worker"], registerNode],
  [["channel"], registerChannel],
  [["serve"], registerServe],
  [["chat"], registerChat],
  [["job"], registerJob],
  [["tool"], registerTool],
  [["mcp"], registerMcp],
  [["remote"], registerRemote],
  [["policy"], registerPolicy],
  [["approval"], registerApproval],
  [["kill", "revive"], registerKill],
  [["inventory"], registerInventory],
  [["model"], registerModel],
  [["provider"], registerProvider],
  [["skill"], registerSkill],
  [["tenant"], registerTenant],
  [["user"], registerUser],
  [["member"], registerMember],
  [["key"], registerKey],
  [["audit"], registerAudit],
  [["records"], registerRecords],
  [["routine"], registerRoutine],
];

/**
 * The command tree, or, when `first` (a command line's first word) names one of its groups, the
 * tree with that group alone: commander runs a command line whose first word is a command in
 * that command, so the others, which cost a start about 15 ms of CPU to build, would go unused
 * (a refusal, a suggestion and a help page name no other group). Any other first word (an
 * option, `help`, a word that is no command) gets the whole tree.
 */
export function buildProgram(out: Output, rendering?: HelpRendering, first?: string): Command {
  const program = new Command("oz0")
    .description("oz0: agent runtime and plugin platform")
    .version(VERSION, "-V, --version", "print oz0's version")
    .option("--home <dir>", "oz0's home folder (default $OZ0_HOME or ~/.oz0)")
    .option("--tenant <name>", "the tenant to act in", "default")
    .option("--json", "print machine-readable JSON on stdout")
    .option(
      "--server <url>",
      "talk to the oz0 server at this URL instead of the embedded runtime (default $OZ0_SERVER)",
    )
    .option("--api-key-file <file>", "with --server: the file holding the API key (default $OZ0_API_KEY)")
    .enablePositionalOptions(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.stdout(text),
      writeErr: (text) => out.stderr(text),
      getOutHelpWidth: () => rendering?.width ?? helpWidth(process.stdout),
      getErrHelpWidth: () => rendering?.width ?? helpWidth(process.stderr),
      // A parse error is printed once, in the one error shape, by runCli.
      outputError: () => {},
    })
    .hook("preAction", async (_command, action) => {
      if (rendering?.helpOnly) throw new Error(`oz0 ${commandWords(action)} runs an action, not help`);
      const options = action.optsWithGlobals<GlobalOptions>();
      const fromEnv = process.env.OZ0_SERVER;
      if (options.server === undefined && fromEnv !== undefined && fromEnv !== "") options.server = fromEnv;
      out.configure(options);
      await refuseWhatCannotGoThroughAServer(options, commandWords(action));
    });
  const group = GROUPS.find(([names]) => first !== undefined && names.includes(first));
  for (const [, register] of group === undefined ? GROUPS : [group]) register(program, out);
  return program;
}

/** `plugin install` for the command `oz0 plugin install` runs. */
function commandWords(action: Command): string {
  const words: string[] = [];
  for (let command: Command | null = action; command?.parent != null; command = command.parent) {
    words.unshift(command.name());
  }
  return words.join(" ");
}

/**
 * A command that runs only on this machine refuses --server (or OZ0_SERVER), saying why; and
 * --api-key-file means nothing without a server.
 */
async function refuseWhatCannotGoThroughAServer(options: GlobalOptions, words: string): Promise<void> {
  if (options.server === undefined) {
    if (options.apiKeyFile !== undefined) {
      throw await invalidInput(
        `--api-key-file ${options.apiKeyFile}: a key is for a server; give --server URL (or OZ0_SERVER) too, or leave the key out to use the embedded runtime`,
        "api-key-file",
        "without --server",
      );
    }
    return;
  }
  if (options.home !== undefined) {
    throw await invalidInput(
      `--home ${options.home}: the home is the embedded runtime's; through --server ${options.server} the server's home is used, so leave --home out`,
      "home",
      "with --server",
    );
  }
  const why = localOnlyReason(words);
  if (why === undefined) return;
  const { Oz0Error } = await import("@oz0/sdk");
  throw new Oz0Error(
    "NOT_SUPPORTED",
    `oz0 ${words} does not go through a server (--server ${options.server}): ${why}`,
    {
      data: { feature: "--server", command: `oz0 ${words}` },
    },
  );
}

/** Runs one oz0 command line and returns its exit code. */
export async function runCli(
  argv: readonly string[],
  out: Output = new Output(),
  rendering?: HelpRendering,
): Promise<number> {
  const program = buildProgram(out, rendering, argv[0]);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (thrown) {
    // --help and --version end here too, and stay as light as they are.
    if (
      thrown instanceof CommanderError &&
      (!thrown.code.startsWith("commander.") || !PARSE_ERRORS.has(thrown.code))
    )
      return thrown.exitCode;
    // The SDK builds the one error shape every surface prints. Its errors alone, loaded only on
    // an error, keep a refused command line as cheap as --help.
    const { errorShape, Oz0Error } = await import("@oz0/sdk/errors");
    if (thrown instanceof CommanderError) {
      // The parse failed before any action ran, so --json is read from the command line itself.
      if (wantsJson(argv)) out.json = true;
      const refusal = parseRefusal(program, argv, thrown);
      out.error(errorShape(new Oz0Error("INVALID_INPUT", refusal.message, { data: refusal.data })));
      return thrown.exitCode;
    }
    out.error(errorShape(thrown));
    return 1;
  }
}

/** Commander's refusals of a command line, as against help, the version and our exit codes. */
const PARSE_ERRORS = new Set([
  "commander.unknownOption",
  "commander.unknownCommand",
  "commander.missingArgument",
  "commander.optionMissingArgument",
  "commander.missingMandatoryOptionValue",
  "commander.conflictingOption",
  "commander.invalidArgument",
  "commander.excessArguments",
]);

function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/**
 * A command line commander refused, for INVALID_INPUT: its message, where the command's usage
 * is, and the option or argument it names as the issue's path.
 */
function parseRefusal(
  program: Command,
  argv: readonly string[],
  error: CommanderError,
): { message: string; data: { issues: { path: string; message: string }[] } } {
  const said = error.message.replace(/^error: /, "").replace(/\.$/, "");
  // "option '--limit <n>' argument 'abc' is invalid. it takes …" reads "--limit abc: it takes …".
  const invalid = /^option '(\S+)[^']*' argument '([^']*)' is invalid\. (.*)$/s.exec(said);
  const text = invalid === null ? said : `${invalid[1]} ${invalid[2]}: ${invalid[3]}`;
  const named = invalid?.[1] ?? /'([^']*)'/.exec(said)?.[1]?.split(" ")[0] ?? "";
  return {
    message: `${text}; ${commandPath(program, argv)} --help shows its usage`,
    data: { issues: [{ path: named, message: text }] },
  };
}

/** `oz0 job search`: the words of the command line that name commands. */
function commandPath(program: Command, argv: readonly string[]): string {
  const words = ["oz0"];
  let command = program;
  for (const word of argv) {
    if (word.startsWith("-")) continue;
    const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (next === undefined) continue;
    words.push(word);
    command = next;
  }
  return words.join(" ");
}
