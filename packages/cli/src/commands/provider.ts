// `oz0 provider set|list|remove`: where a tenant's model providers are (base URL), where their
// keys come from (an environment variable, or a key piped in on stdin and stored encrypted),
// and how their calls are retried and timed out. No command ever prints a key: lists show
// where it comes from, or a hint such as `sk-…abcd`.
import type { KeyView, ProviderChange, ProviderType, ProviderView } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import { allOf, numberOption } from "../options.js";
import type { Output } from "../output.js";

/** The runtime's PROVIDER_TYPES. */
const PROVIDER_TYPES = allOf<ProviderType>()(["openai", "openai-chat", "anthropic", "openai-compatible"]);

/** Where `--api-key-stdin` reads the key; tests put a key of their own here. */
export const keyInput = {
  read: async (out: Output): Promise<string> => {
    if (process.stdin.isTTY) out.stderr("paste the key, then press Ctrl-D\n");
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

interface SetOptions {
  type?: ProviderType;
  baseUrl?: string;
  apiKeyEnv?: string;
  apiKeyStdin?: boolean;
  timeout?: number;
  retries?: number;
  stream?: boolean;
  structuredOutput?: "json_schema" | "prompt";
}

export function registerProvider(program: Command, out: Output): Command {
  const provider = program
    .command("provider")
    .description("a tenant's model providers: base URLs, keys, timeouts and retries");

  provider
    .command("set")
    .description("configure a provider: a built-in one, a plugin's, or a new name of a built-in type")
    .argument(
      "<name>",
      "the provider, as in <name>:<model> (openai, anthropic, openai-compatible, ollama, …)",
    )
    .addOption(new Option("--type <type>", "the wire format of a new provider name").choices(PROVIDER_TYPES))
    .option("--base-url <url>", "where its API is, such as http://localhost:11434/v1")
    .option("--api-key-env <var>", "read its key from this environment variable when a call is made")
    .option("--api-key-stdin", "read its key from stdin and store it, encrypted, in the tenant")
    .option(
      "--timeout <seconds>",
      "seconds without an answer before a call is tried again",
      numberOption({ what: "seconds", example: "60" }),
    )
    .option(
      "--retries <n>",
      "how many times a failed call is tried again",
      numberOption({ whole: true, what: "a count", example: "2" }),
    )
    .option("--stream", "stream its calls (the default)")
    .option("--no-stream", "make each call whole: for servers that cannot stream tool calls")
    .addOption(
      new Option(
        "--structured-output <mode>",
        "openai-compatible only: json_schema when the server takes that response format, else prompt",
      ).choices(["json_schema", "prompt"]),
    )
    .action(async (name: string, options: SetOptions, command: Command) => {
      const change: ProviderChange = {
        ...(options.type === undefined ? {} : { type: options.type }),
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        ...(options.apiKeyEnv === undefined ? {} : { apiKeyEnv: options.apiKeyEnv }),
        ...(options.apiKeyStdin === true ? { apiKey: await keyInput.read(out) } : {}),
        ...(options.timeout === undefined ? {} : { timeoutSeconds: options.timeout }),
        ...(options.retries === undefined ? {} : { retries: options.retries }),
        ...(command.getOptionValueSource("stream") === "cli" ? { stream: options.stream === true } : {}),
        ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
      };
      const view = await withRuntime(out, ({ services, caller }) =>
        services.models.setProvider(caller, name, change),
      );
      out.result(
        view,
        (set) => `provider ${set.name} set in tenant ${out.options.tenant}\n${drawProvider(set)}`,
      );
    });

  provider
    .command("list")
    .description("list the providers the tenant can use, with their base URLs and where their keys come from")
    .action(async () => {
      const list = await withRuntime(out, ({ services, caller }) => services.models.providers(caller));
      out.result(list, (views) => views.map(drawProvider).join("\n"));
    });

  provider
    .command("remove")
    .description("remove a provider's settings and its stored key")
    .argument("<name>", "the provider")
    .action(async (name: string) => {
      await withRuntime(out, ({ services, caller }) => services.models.removeProvider(caller, name));
      out.result(
        { name, removed: true },
        () => `provider ${name}'s settings removed from tenant ${out.options.tenant}`,
      );
    });

  return provider;
}

function drawProvider(view: ProviderView): string {
  const parts = [`${view.name.padEnd(18)} ${view.displayName} (${view.source})`];
  if (view.baseUrl !== null)
    parts.push(`  url   ${view.baseUrl}${view.baseUrlFrom === null ? "" : ` (${view.baseUrlFrom})`}`);
  if (view.type !== "test") parts.push(`  key   ${drawKey(view.key)}`);
  const limits = [
    view.timeoutSeconds === null ? undefined : `timeout ${view.timeoutSeconds} s`,
    view.retries === null ? undefined : `${view.retries} retries`,
    view.stream === false ? "not streamed" : undefined,
    view.structuredOutput === null ? undefined : `structured output ${view.structuredOutput}`,
  ].filter((part) => part !== undefined);
  if (limits.length > 0) parts.push(`  calls ${limits.join(", ")}`);
  return parts.join("\n");
}

function drawKey(key: KeyView): string {
  switch (key.state) {
    case "stored":
      return `stored${key.hint === null ? "" : ` (${key.hint})`}`;
    case "env":
      return `from ${key.env} (${key.set ? "set" : "not set in this process"})`;
    case "none":
      return key.required ? "none: calls are refused until one is set" : "none (the server needs none)";
  }
}
