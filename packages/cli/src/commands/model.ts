// `oz0 model set|list|remove|price|prices`: a tenant's model aliases (`default`, `fast`, …,
// each mapped to `provider:model`, with request options such as --temperature) and the price table the cost of every model call is worked
// out from. The runtime checks everything when it is set; these commands parse and print.
import type { AliasView, PriceView } from "@oz0/runtime";
import { type Command, Option } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";

export function registerModel(program: Command, out: Output): Command {
  const model = program.command("model").description("a tenant's model aliases and prices");

  model
    .command("set")
    .description("map an alias (default, fast, …) to a provider's model, such as openai:gpt-4.1")
    .argument("<alias>", "the alias agents name in model: { use: <alias> }")
    .argument("<model>", "<provider>:<model>, or test for the offline test model")
    .option("--temperature <n>", "sampling temperature, 0 to 2", parseNumber)
    .option("--top-p <n>", "nucleus sampling, above 0 to 1", parseNumber)
    .option("--max-tokens <n>", "the most tokens one answer may have", parseNumber)
    .option("--reasoning-effort <effort>", "none, minimal, low, medium, high or xhigh")
    .option("--stop <text>", "a stop sequence (repeat for up to 4)", collect)
    .option("--header <name=value>", "an extra HTTP header on every call (repeat for more)", collect)
    .option("--store", "OpenAI only: let OpenAI store the responses")
    .option("--no-store", "OpenAI only: ask OpenAI not to store the responses")
    .option("--stream", "stream the calls (the default)")
    .option("--no-stream", "make each call whole: for servers that cannot stream tool calls")
    .addOption(
      new Option(
        "--structured-output <mode>",
        "openai-compatible only: json_schema when the server takes it, else prompt",
      ).choices(["json_schema", "prompt"]),
    )
    .action(async (alias: string, target: string, flags: SetFlags, command: Command) => {
      const options = await aliasOptions(flags, command);
      const view = await withRuntime(out, ({ services, caller }) =>
        services.models.setAlias(caller, alias, target, options),
      );
      out.result(
        view,
        (set) =>
          `${set.alias} → ${set.target}${describeOptions(set.options)} in tenant ${out.options.tenant}`,
      );
    });

  model
    .command("list")
    .description("list the tenant's aliases and the models they name")
    .action(async () => {
      const aliases = await withRuntime(out, ({ services, caller }) => services.models.aliases(caller));
      out.result(aliases, drawAliases);
    });

  model
    .command("remove")
    .description("remove an alias (default then runs on the offline test model)")
    .argument("<alias>", "the alias")
    .action(async (alias: string) => {
      await withRuntime(out, ({ services, caller }) => services.models.removeAlias(caller, alias));
      out.result({ alias, removed: true }, () => `alias ${alias} removed from tenant ${out.options.tenant}`);
    });

  model
    .command("price")
    .description("set the price of a model, in USD per million tokens, for the cost of each call")
    .argument("<model>", "<provider>:<model>, or <provider>:* for every model of a provider")
    .option("--input <usd>", "USD per million prompt tokens", parseUsd)
    .option("--output <usd>", "USD per million answer tokens", parseUsd)
    .option(
      "--cached <usd>",
      "USD per million prompt tokens read from the cache (default: the input price)",
      parseUsd,
    )
    .option("--remove", "remove the price instead")
    .action(
      async (
        target: string,
        options: { input?: number; output?: number; cached?: number; remove?: boolean },
      ) => {
        const tenant = out.options.tenant;
        if (options.remove === true) {
          await withRuntime(out, ({ services, caller }) => services.models.removePrice(caller, target));
          out.result({ target, removed: true }, () => `price of ${target} removed from tenant ${tenant}`);
          return;
        }
        if (options.input === undefined || options.output === undefined) {
          throw await invalidInput(
            "oz0 model price needs --input and --output (USD per million tokens), or --remove.",
            options.input === undefined ? "input" : "output",
            "missing",
          );
        }
        const view = await withRuntime(out, ({ services, caller }) =>
          services.models.setPrice(caller, target, {
            input: options.input!,
            output: options.output!,
            ...(options.cached === undefined ? {} : { cached: options.cached }),
          }),
        );
        out.result(view, (price) => `${price.target}: ${describePrice(price)} in tenant ${tenant}`);
      },
    );

  model
    .command("prices")
    .description("list the tenant's price table")
    .action(async () => {
      const prices = await withRuntime(out, ({ services, caller }) => services.models.prices(caller));
      out.result(prices, drawPrices);
    });

  return model;
}

/** USD per million tokens: the runtime holds the price to its rules, a number 0 or more. */
const parseUsd = numberOption({ what: "USD per million tokens", example: "2.5" });

/** A request option's number: the runtime holds it to the option's range, as the manifest does. */
const parseNumber = numberOption({ what: "the option's value", example: "0.2" });

interface SetFlags {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  reasoningEffort?: string;
  stop?: string[];
  header?: string[];
  store?: boolean;
  stream?: boolean;
  structuredOutput?: string;
}

/** The flags given, as the alias's options; the runtime checks each. */
async function aliasOptions(flags: SetFlags, command: Command): Promise<Record<string, unknown>> {
  // --store/--no-store and --stream/--no-stream say nothing unless given.
  const given = (name: string) => command.getOptionValueSource(name) === "cli";
  const headers: Record<string, string> = {};
  for (const header of flags.header ?? []) {
    const at = header.indexOf("=");
    if (at <= 0) {
      throw await invalidInput(
        `--header takes NAME=VALUE, such as X-Team=support; got '${header}'.`,
        "header",
        "expected NAME=VALUE",
      );
    }
    headers[header.slice(0, at).trim()] = header.slice(at + 1);
  }
  return {
    ...(flags.temperature === undefined ? {} : { temperature: flags.temperature }),
    ...(flags.topP === undefined ? {} : { top_p: flags.topP }),
    ...(flags.maxTokens === undefined ? {} : { max_tokens: flags.maxTokens }),
    ...(flags.reasoningEffort === undefined ? {} : { reasoning_effort: flags.reasoningEffort }),
    ...(flags.stop === undefined ? {} : { stop: flags.stop }),
    ...(flags.header === undefined ? {} : { headers }),
    ...(given("store") ? { store: flags.store } : {}),
    ...(given("stream") ? { stream: flags.stream } : {}),
    ...(flags.structuredOutput === undefined ? {} : { structured_output: flags.structuredOutput }),
  };
}

function describeOptions(options: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(options);
  if (entries.length === 0) return "";
  return ` (${entries
    .map(([key, value]) =>
      key === "headers"
        ? `headers ${Object.keys(value as object).join(", ")}`
        : `${key} ${Array.isArray(value) ? value.map((item) => JSON.stringify(item)).join(" ") : String(value)}`,
    )
    .join(", ")})`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function drawAliases(aliases: readonly AliasView[]): string {
  const width = Math.max(...aliases.map((alias) => alias.alias.length));
  return aliases
    .map(
      (alias) =>
        `${alias.alias.padEnd(width)}  → ${alias.target}${alias.fallback ? " (nothing set: the offline test model)" : describeOptions(alias.options)}`,
    )
    .join("\n");
}

function describePrice(price: PriceView): string {
  const cached = price.cached === undefined ? "" : `, $${price.cached} cached`;
  return `$${price.input} in${cached}, $${price.output} out per million tokens`;
}

function drawPrices(prices: readonly PriceView[]): string {
  if (prices.length === 0) {
    return "no prices set; oz0 model price <provider>:<model> --input USD --output USD sets one";
  }
  const width = Math.max(...prices.map((price) => price.target.length));
  return prices.map((price) => `${price.target.padEnd(width)}  ${describePrice(price)}`).join("\n");
}
