// `oz0 remote secret set|list`: the tenant's secrets a remote agent's runtime sends (an outside
// A2A agent's harness.key names one). Values are read from stdin or an environment variable,
// stored encrypted, and never shown.
import type { Command } from "commander";
import { withLocalRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";

export function registerRemote(program: Command, out: Output): Command {
  const remote = program.command("remote").description("remote agents: the secrets their runtimes send");
  const secret = remote
    .command("secret")
    .description("set and list the tenant's secrets remote agents send (harness.key names one)");
  secret
    .command("set")
    .description("set a remote agent's secret; its value is read from stdin, or from --from-env")
    .argument("<name>", "the secret's name, as the agent's harness.key writes it")
    .option("--from-env <variable>", "take the value from this environment variable of oz0 instead of stdin")
    .action(async (name: string, options: { fromEnv?: string }) => {
      const value = options.fromEnv === undefined ? await readStdin() : await fromEnv(options.fromEnv);
      const set = await withLocalRuntime(out, ({ services, caller }) =>
        services.remote.setSecret(caller, name, value),
      );
      out.result(set, () => `set remote secret ${set.name}`);
    });
  secret
    .command("list")
    .description("list the names of the tenant's remote-agent secrets (values are never shown)")
    .action(async () => {
      const names = await withLocalRuntime(out, ({ services, caller }) => services.remote.secrets(caller));
      out.result(names, (list) => (list.length === 0 ? "no remote secrets are set" : list.join("\n")));
    });
  return remote;
}

async function fromEnv(variable: string): Promise<string> {
  const value = process.env[variable];
  if (value === undefined || value === "") {
    throw await invalidInput(
      `--from-env ${variable}: oz0's environment has no ${variable}; export it first, or pipe the value to stdin`,
      "from-env",
      "not set",
    );
  }
  return value;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw await invalidInput(
      'pipe the secret\'s value to stdin (printf %s "$TOKEN" | oz0 remote secret set NAME), or use --from-env VARIABLE',
      "value",
      "stdin is a terminal",
    );
  }
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  const value = text.replace(/\r?\n$/, "");
  if (value === "")
    throw await invalidInput("stdin was empty; pipe the secret's value to it", "value", "empty");
  return value;
}
