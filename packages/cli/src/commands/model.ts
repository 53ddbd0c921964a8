// `oz0 model set|list|remove|price|prices`: a tenant's model aliases (`default`, `fast`, …,
// each mapped to `provider:model`) and the price table the cost of every model call is worked
// out from. The runtime checks everything when it is set; these commands parse and print.
import type { AliasView, PriceView } from "@oz0/runtime";
import type { Command } from "commander";
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
    .action(async (alias: string, target: string) => {
      const view = await withRuntime(out, (runtime) =>
        runtime.models.setAlias(out.options.tenant, alias, target),
      );
      out.result(view, (set) => `${set.alias} → ${set.target} in tenant ${out.options.tenant}`);
    });

  model
    .command("list")
    .description("list the tenant's aliases and the models they name")
    .action(async () => {
      const aliases = await withRuntime(out, (runtime) => runtime.models.aliases(out.options.tenant));
      out.result(aliases, drawAliases);
    });

  model
    .command("remove")
    .description("remove an alias (default then runs on the offline test model)")
    .argument("<alias>", "the alias")
    .action(async (alias: string) => {
      await withRuntime(out, (runtime) => runtime.models.removeAlias(out.options.tenant, alias));
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
          await withRuntime(out, (runtime) => runtime.models.removePrice(tenant, target));
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
        const view = await withRuntime(out, (runtime) =>
          runtime.models.setPrice(tenant, target, {
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
      const prices = await withRuntime(out, (runtime) => runtime.models.prices(out.options.tenant));
      out.result(prices, drawPrices);
    });

  return model;
}

/** USD per million tokens: the runtime holds the price to its rules, a number 0 or more. */
const parseUsd = numberOption({ what: "USD per million tokens", example: "2.5" });

function drawAliases(aliases: readonly AliasView[]): string {
  const width = Math.max(...aliases.map((alias) => alias.alias.length));
  return aliases
    .map(
      (alias) =>
        `${alias.alias.padEnd(width)}  → ${alias.target}${alias.fallback ? " (nothing set: the offline test model)" : ""}`,
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
