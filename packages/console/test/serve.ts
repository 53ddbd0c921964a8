// A real `oz0 serve` for the console's browser tests: the CLI run from its sources in a child
// process, on a home the test made, serving the console from packages/console/dist (what
// `npm run build` made), with its own worker.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";

const MAIN = join(import.meta.dirname, "../../cli/src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");

export interface ConsoleServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `oz0 serve --home <home>` on a free loopback port, on SQLite, and waits until it listens. */
export async function serveConsole(home: string, env: NodeJS.ProcessEnv = {}): Promise<ConsoleServer> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.OZ0_DATABASE_URL;
  const child = spawn(
    process.execPath,
    [
      "--conditions=@oz0/source",
      "--import",
      RESOLVE_TS,
      MAIN,
      "serve",
      "--listen",
      "127.0.0.1:0",
      "--json",
      "--home",
      home,
    ],
    { env: childEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await listening(child);
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (text) => {
      const value = JSON.parse(text) as { event?: string; url?: string };
      if (value.event === "listening" && value.url !== undefined) {
        lines.close();
        resolve(value.url);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`oz0 serve exited (${code}) before it listened: ${stderr}`)),
    );
  });
}
