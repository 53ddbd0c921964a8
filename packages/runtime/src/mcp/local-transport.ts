// A local MCP server's process and everything it started. Servers are often run by a launcher
// (`npx -y …`, `uvx …`, a shell script) whose child is the server: the SDK's transport ends the
// launcher (stdin closed, then SIGTERM, then SIGKILL), and a launcher killed outright leaves its
// children running with no parent. So the transport notes the launcher's descendants just
// before it closes, and ends those still running once the launcher is gone.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The SDK's stdio transport, whose close also ends the processes the server started. */
export class LocalServerTransport extends StdioClientTransport {
  override async close(): Promise<void> {
    const pid = this.pid;
    const started = pid === null ? [] : await descendantsOf(pid).catch(() => []);
    await super.close();
    for (const child of started) {
      try {
        process.kill(child, "SIGKILL");
      } catch {
        // It had ended already.
      }
    }
  }
}

/** The processes descended from `pid` now (children first), from /proc or, without it, `ps`. */
async function descendantsOf(pid: number): Promise<number[]> {
  const parents = await parentsByPid();
  const found: number[] = [];
  let level = [pid];
  while (level.length > 0) {
    const next = [...parents].filter(([, parent]) => level.includes(parent)).map(([child]) => child);
    found.push(...next);
    level = next;
  }
  return found;
}

/** Each process's parent, by process id. */
async function parentsByPid(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  const entries = await readdir("/proc").catch(() => undefined);
  if (entries === undefined) {
    const { stdout } = await promisify(execFile)("ps", ["-A", "-o", "pid=,ppid="]);
    for (const line of stdout.split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid !== undefined && ppid !== undefined && !Number.isNaN(pid)) parents.set(pid, ppid);
    }
    return parents;
  }
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
        const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (!Number.isNaN(ppid)) parents.set(Number(entry), ppid);
      }),
  );
  return parents;
}
