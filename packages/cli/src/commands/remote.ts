// `oz0 remote secret set|list`: the tenant's secrets a remote agent's runtime sends (an outside
// A2A agent's harness.key names one). Values are read from stdin or an environment variable,
// stored encrypted, and never shown.
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { secretValue } from "../secret-value.js";

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
      const value = await secretValue(options.fromEnv, "oz0 remote secret set NAME");
      const set = await withRuntime(out, ({ services, caller }) =>
        services.remote.setSecret(caller, name, value),
      );
      out.result(set, () => `set remote secret ${set.name}`);
    });
  secret
    .command("list")
    .description("list the names of the tenant's remote-agent secrets (values are never shown)")
    .action(async () => {
      const names = await withRuntime(out, ({ services, caller }) => services.remote.secrets(caller));
      out.result(names, (list) => (list.length === 0 ? "no remote secrets are set" : list.join("\n")));
    });
  return remote;
}
