// `oz0 mcp serve|status|secret`: oz0's functions served to MCP clients (stdio, or Streamable
// HTTP with --http), the tenant's MCP-backed tools and what their servers list, and the secrets
// those servers are started with, which are set and removed here and never shown.
import type { McpSecretKind, McpSecretNames, McpToolReport } from "@oz0/runtime";
import { Argument, type Command } from "commander";
import { withLocalRuntime, withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import { numberOption } from "../options.js";
import type { Output } from "../output.js";
import { secretValue } from "../secret-value.js";
import { registerMcpClient } from "./mcp-client.js";
import { table } from "./plugin.js";

export function registerMcp(program: Command, out: Output): Command {
  const mcp = program
    .command("mcp")
    .description("serve oz0's functions over MCP, and look after the MCP servers behind tools");

  mcp
    .command("serve")
    .description(
      "serve the functions an agent may call (or the tenant's catalog) to MCP clients, on stdio or over HTTP; each call is checked and recorded as a job",
    )
    .option("--agent <address>", "serve the functions this agent may call, as it (<plugin>/<agent>)")
    .option(
      "--http <port>",
      "serve Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio (0: any free port)",
      numberOption({
        whole: true,
        min: 0,
        max: 65_535,
        what: "a port (0 picks a free one)",
        example: "8080",
      }),
    )
    .option("--host <host>", "the address to listen on with --http", "127.0.0.1")
    .action(async (options: { agent?: string; http?: number; host: string }) => {
      const tenant = out.options.tenant;
      await withLocalRuntime(out, async ({ services, caller }) => {
        const { serveHttp, serveStdio } = await import("@oz0/runtime");
        const server = await services.mcp.serve(caller, { agent: options.agent });
        try {
          const { functions, leftOut } = await server.functions();
          const scope = options.agent === undefined ? `tenant ${tenant}'s catalog` : `agent ${server.agent}`;
          for (const left of leftOut) out.stderr(`oz0 mcp: left out ${left.name}: ${left.reason}\n`);
          const stop = stopSignal();
          try {
            if (options.http === undefined) {
              out.stderr(`oz0 mcp: serving ${functions.size} functions of ${scope} on stdio\n`);
              await Promise.race([serveStdio(server), stop.signalled]);
              return;
            }
            const serving = await serveHttp(server, { port: options.http, host: options.host });
            out.result(
              {
                url: serving.url,
                port: serving.port,
                tenant,
                agent: server.agent ?? null,
                functions: [...functions.keys()],
              },
              (data) =>
                `serving ${data.functions.length} functions of ${scope} at ${data.url} (Ctrl-C stops)`,
            );
            await stop.signalled;
            await serving.close();
          } finally {
            stop.dispose();
          }
        } finally {
          await server.close();
        }
      });
    });

  mcp
    .command("status")
    .description(
      "list the tenant's MCP-backed tools: each server, the functions it lists now, and the names of its secrets",
    )
    .action(async () => {
      const tenant = out.options.tenant;
      const reports = await withRuntime(out, ({ services, caller }) => services.mcp.status(caller));
      out.result(reports, (list) => drawStatus(tenant, list));
    });

  const secret = mcp
    .command("secret")
    .description(
      "set, list and remove the secrets an MCP server behind a tool gets: env variables, headers, or the OAuth credentials its oauth: grant reads",
    );
  const kind = new Argument(
    "<kind>",
    "env for a server started locally (command:), header for one reached at url:, oauth for a credential its oauth: grant reads (client_secret, private_key, id_token, idp_client_secret)",
  ).choices(["env", "header", "oauth"]);
  secret
    .command("set")
    .description("set a secret of a tool's MCP server; its value is read from stdin, or from --from-env")
    .argument("<tool>", "the MCP-backed tool, by address (<plugin>/<tool>)")
    .addArgument(kind)
    .argument("<name>", "the env variable or header name, or the OAuth credential's")
    .option("--from-env <variable>", "take the value from this environment variable of oz0 instead of stdin")
    .action(async (tool: string, which: McpSecretKind, name: string, options: { fromEnv?: string }) => {
      const value = await secretValue(options.fromEnv, "oz0 mcp secret set …");
      const set = await withRuntime(out, ({ services, caller }) =>
        services.mcp.setSecret(caller, tool, which, name, value),
      );
      out.result(set, () => `set ${which} ${name} of ${set.tool}; its server gets it from the next start`);
    });
  secret
    .command("list")
    .description("list which secrets are set, by name (values are never shown)")
    .action(async () => {
      const tenant = out.options.tenant;
      const list = await withRuntime(out, ({ services, caller }) => services.mcp.secrets(caller));
      out.result(list, (entries) => drawSecrets(tenant, entries));
    });
  secret
    .command("remove")
    .description("remove one secret of a tool's MCP server, or all of them")
    .argument("<tool>", "the MCP-backed tool, by address (<plugin>/<tool>)")
    .addArgument(new Argument("[kind]", "env, header or oauth").choices(["env", "header", "oauth"]))
    .argument(
      "[name]",
      "the env variable, header or OAuth credential name; all of the tool's secrets when left out",
    )
    .action(async (tool: string, which: McpSecretKind | undefined, name: string | undefined) => {
      if ((which === undefined) !== (name === undefined)) {
        throw await invalidInput(
          "give both the kind and the name of one secret (env NAME, header NAME, oauth NAME), or neither to remove them all",
          "name",
          "kind and name go together",
        );
      }
      const one = which === undefined || name === undefined ? undefined : { kind: which, name };
      const removed = await withRuntime(out, ({ services, caller }) =>
        services.mcp.removeSecret(caller, tool, one),
      );
      const what = name === undefined ? "its secrets" : `${which} ${name}`;
      out.result(removed, (data) =>
        data.removed
          ? `removed ${what} of ${data.tool}`
          : `${data.tool} had no ${name === undefined ? "secrets" : `${which} ${name}`}`,
      );
    });
  registerMcpClient(mcp, out);
  return mcp;
}

/** Ctrl-C or SIGTERM, so serving ends with every MCP server it started stopped. */
function stopSignal(): { readonly signalled: Promise<void>; dispose(): void } {
  let stop = () => {};
  const signalled = new Promise<void>((resolve) => {
    stop = () => resolve();
  });
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return {
    signalled,
    dispose() {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}

function drawStatus(tenant: string, reports: readonly McpToolReport[]): string {
  if (reports.length === 0)
    return `tenant ${tenant} has no MCP-backed tools; a plugin declares one with mcp: under tools:`;
  const lines: string[] = [];
  for (const report of reports) {
    if (lines.length > 0) lines.push("");
    lines.push(`${report.address}  (${report.transport}: ${report.server})`);
    if (report.error !== null) lines.push(`  not listed: ${report.error}`);
    else lines.push(`  functions: ${report.functions.join(", ") || "none"}`);
    for (const left of report.leftOut) lines.push(`  left out ${left.name}: ${left.reason}`);
    const secrets = secretNames(report.secrets);
    if (secrets.length > 0) lines.push(`  secrets: ${secrets.join(", ")}`);
  }
  return lines.join("\n");
}

function drawSecrets(tenant: string, entries: readonly McpSecretNames[]): string {
  const rows = entries
    .map((entry) => [entry.tool, secretNames(entry).join(", ")])
    .filter((row) => row[1] !== "");
  if (rows.length === 0)
    return `no MCP secrets are set in tenant ${tenant}; set one with oz0 mcp secret set <plugin>/<tool> env|header|oauth NAME`;
  return table([["TOOL", "SECRETS"], ...rows]);
}

function secretNames(set: Pick<McpSecretNames, "env" | "headers" | "oauth">): string[] {
  return [
    ...set.env.map((name) => `env ${name}`),
    ...set.headers.map((name) => `header ${name}`),
    ...set.oauth.map((name) => `oauth ${name}`),
  ];
}
