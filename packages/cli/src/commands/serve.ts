// `oz0 serve [--listen HOST:PORT] [--no-worker]`: the HTTP API over this home's store (or
// OZ0_DATABASE_URL's), with a worker running its jobs. Callers send keys made by `oz0 key
// create`. It prints the URL it listens on;
// SIGTERM or SIGINT drains the worker and closes the server. The server package is loaded only
// when the command runs.
import { once } from "node:events";
import { type Command, InvalidArgumentError } from "commander";
import { withLocalRuntime } from "../context.js";
import type { Output } from "../output.js";

interface ServeOptions {
  listen: { host: string; port: number };
  worker: boolean;
  secureCookies?: boolean;
}

export function registerServe(program: Command, out: Output): Command {
  return program
    .command("serve")
    .description("serve the HTTP API (GET /v1/docs describes it) and run a worker, until SIGTERM")
    .option(
      "--listen <host:port>",
      "where to listen (default 127.0.0.1:7420; port 0 picks a free one)",
      parseListen,
      { host: "127.0.0.1", port: 7420 },
    )
    .option("--no-worker", "run no worker here: jobs it starts wait for an oz0 worker elsewhere")
    .option(
      "--secure-cookies",
      "mark the web console's session cookie Secure on every answer: for a server behind a TLS-terminating proxy",
    )
    .action(async (options: ServeOptions) => {
      await withLocalRuntime(out, async ({ runtime }) => {
        const { startServer } = await import("@oz0/server");
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once("SIGTERM", onSignal);
        process.once("SIGINT", onSignal);
        try {
          const server = await startServer({
            runtime,
            host: options.listen.host,
            port: options.listen.port,
            worker: options.worker ? {} : false,
            secureCookies: options.secureCookies === true,
            onRoutineError: (error) =>
              out.stderr(`oz0: routines: ${error instanceof Error ? error.message : String(error)}\n`),
            onRuntimeError: (error) =>
              out.stderr(`oz0: plugin runtimes: ${error instanceof Error ? error.message : String(error)}\n`),
            onChannelError: (error) =>
              out.stderr(`oz0: channels: ${error instanceof Error ? error.message : String(error)}\n`),
          });
          if (out.json)
            out.writeJson({ event: "listening", url: server.url, worker: server.worker?.id ?? null });
          else out.stdout(`oz0 serve listening on ${server.url}\n`);
          if (!stop.signal.aborted) await once(stop.signal, "abort");
          if (!out.json) out.stderr("oz0 serve: draining the worker and closing\n");
          await server.close();
          if (out.json) out.writeJson({ event: "closed" });
        } finally {
          process.off("SIGTERM", onSignal);
          process.off("SIGINT", onSignal);
        }
      });
    });
}

/** `HOST:PORT`, `[v6]:PORT`, or `:PORT` for loopback. */
function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text.trim());
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || port > 65535) {
    throw new InvalidArgumentError("it takes HOST:PORT, such as 127.0.0.1:7420 ([::1]:7420 for IPv6)");
  }
  const host = match[1] ?? match[2] ?? "";
  return { host: host === "" ? "127.0.0.1" : host, port };
}
