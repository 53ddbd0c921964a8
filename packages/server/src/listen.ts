// `oz0 serve`'s server: the API on a TCP address with `@hono/node-server`, and the worker that
// runs the jobs it starts with the routine scheduler and the plugin runtime host every worker
// runs, closed in order on `close()`.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { JobWorker, Runtime, WorkerOptions } from "@oz0/runtime";
import { type AppOptions, createApp } from "./app.js";

export interface ServerOptions extends AppOptions {
  /** The host to listen on; default 127.0.0.1 (loopback only). */
  readonly host?: string | undefined;
  /** The port; 0 picks a free one. Default 7420. */
  readonly port?: number | undefined;
  /** Run a worker in this process (the default), with these options; `false` runs none. */
  readonly worker?: WorkerOptions | false | undefined;
  /** Told of a fault the routine scheduler went on after (it runs beside the worker). */
  readonly onRoutineError?: ((error: unknown) => void) | undefined;
  /** Told of a fault the plugin runtime host went on after (it runs beside the worker). */
  readonly onRuntimeError?: ((error: unknown) => void) | undefined;
  /** Told of a fault the channels' outbox drainer went on after (it runs beside the worker). */
  readonly onChannelError?: ((error: unknown) => void) | undefined;
}

export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  readonly runtime: Runtime;
  readonly worker: JobWorker | undefined;
  /** Stops taking requests and jobs: the worker drains (the jobs in flight finish or are let go), then the server closes. */
  close(): Promise<void>;
}

export const DEFAULT_LISTEN = { host: "127.0.0.1", port: 7420 } as const;

/** Starts the worker, then listens; resolves once requests are answered. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const worker = options.worker === false ? undefined : options.runtime.worker(options.worker ?? {});
  // Routines fire where jobs run: each tick fires once however many workers run a scheduler.
  const routines =
    worker === undefined
      ? undefined
      : options.runtime.routines.scheduler({ onError: options.onRoutineError });
  // Plugins' runtimes run where jobs do, each in one live process cluster-wide.
  const runtimes =
    worker === undefined
      ? undefined
      : options.runtime.pluginRuntimes.host({ node: worker.id, onError: options.onRuntimeError });
  // The channels' outbox is drained where jobs run (their listeners are runtimes of the host above).
  const channels =
    worker === undefined ? undefined : options.runtime.channelDrainer({ onError: options.onChannelError });
  await worker?.start();
  routines?.start();
  runtimes?.start();
  channels?.start();
  const app = createApp(options);
  const host = options.host ?? DEFAULT_LISTEN.host;
  let server: ReturnType<typeof serve>;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve({ fetch: app.fetch, hostname: host, port: options.port ?? DEFAULT_LISTEN.port }, resolve);
    server.once("error", reject);
  }).catch(async (error: unknown) => {
    await channels?.stop();
    await routines?.stop();
    await runtimes?.stop();
    await worker?.drain();
    throw error;
  });
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    runtime: options.runtime,
    worker,
    async close() {
      await channels?.stop();
      await routines?.stop();
      await runtimes?.stop();
      await worker?.drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open event streams would hold the close until their jobs end.
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
    },
  };
}
