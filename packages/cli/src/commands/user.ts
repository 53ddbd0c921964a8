// `oz0 user add NAME`, `oz0 user list`, `oz0 user remove NAME`: people who sign in to a server
// with a password. The password comes from stdin or --password-file, never from the command
// line, where shell history and every other user's `ps` would see it.
import type { UserView } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput, readOptionFile } from "../errors.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

/** Where `oz0 user add` reads a password when no file is named; tests put text of their own here. */
export const passwordInput = {
  isTerminal: (): boolean => process.stdin.isTTY === true,
  read: async (): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

interface AddOptions {
  passwordFile?: string;
  password?: string;
}

export function registerUser(program: Command, out: Output): Command {
  const user = program
    .command("user")
    .description("people who sign in to a server with a password (an admin of tenant default)");

  user
    .command("add")
    .description("add a user; the password is read from stdin, or from --password-file")
    .argument("<name>", "lowercase letters, digits, '.', '_', '@' and '-' (an email address serves)")
    .option("--password-file <file>", "read the password from this file (its final newline is left out)")
    // Declared to be refused: a password given on the command line is already in the shell's history.
    .addOption(new Option("--password <text>").hideHelp())
    .allowExcessArguments()
    .action(async (name: string, options: AddOptions, command: Command) => {
      if (options.password !== undefined || command.args.length > 1) {
        throw await invalidInput(
          "oz0 user add never takes the password on its command line, where shell history and ps show it; " +
            "pipe it to stdin (oz0 user add NAME < file) or name a file with --password-file FILE",
          options.password !== undefined ? "password" : "arguments",
          "a password is never an argument",
        );
      }
      const password = await readPassword(options.passwordFile);
      const added = await withRuntime(out, ({ services, caller }) =>
        services.identity.addUser(caller, name, password),
      );
      out.result(
        added,
        (view) =>
          `added user ${view.name}; oz0 member add ${view.name} --tenant T --role ROLE makes them a member`,
      );
    });

  user
    .command("list")
    .description("list the users and the tenants each is a member of")
    .action(async () => {
      const users = await withRuntime(out, ({ services, caller }) => services.identity.listUsers(caller));
      out.result(users, drawUsers);
    });

  user
    .command("remove")
    .description("remove a user and every membership the user has")
    .argument("<name>", "the user, as oz0 user list shows it")
    .action(async (name: string) => {
      const removed = await withRuntime(out, ({ services, caller }) =>
        services.identity.removeUser(caller, name),
      );
      out.result(removed, (view) =>
        view.tenants.length === 0
          ? `removed user ${view.name}`
          : `removed user ${view.name} and their memberships of ${view.tenants.map((each) => each.tenant).join(", ")}`,
      );
    });

  return user;
}

/** The password from the file, or piped to stdin, without its final newline. */
async function readPassword(file: string | undefined): Promise<string> {
  let text: string;
  if (file !== undefined) {
    text = await readOptionFile(file, { said: "--password-file", issue: "password-file" });
  } else {
    // A terminal would show the password as it is typed.
    if (passwordInput.isTerminal()) {
      throw await invalidInput(
        "pipe the password to stdin (oz0 user add NAME < file) or name a file with --password-file FILE",
        "password",
        "stdin is a terminal",
      );
    }
    text = await passwordInput.read();
  }
  const password = text.replace(/\r?\n$/, "");
  if (password === "") {
    throw await invalidInput(
      `${file === undefined ? "stdin" : `--password-file ${file}`} held no password`,
      "password",
      "empty",
    );
  }
  return password;
}

function drawUsers(users: readonly UserView[]): string {
  if (users.length === 0) return "there are no users yet: oz0 user add NAME adds one";
  return table([
    ["USER", "CREATED", "BY", "TENANTS"],
    ...users.map((user) => [
      user.name,
      new Date(user.createdAt).toISOString(),
      user.createdBy,
      user.tenants.map((each) => `${each.tenant} (${each.role})`).join(", ") || "-",
    ]),
  ]);
}
