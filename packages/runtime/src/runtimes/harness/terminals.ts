// ACP's terminals for a session that `needs: [terminal]`: each command runs through the
// mediated tool runtime (in a folder of the workspace, a clean environment, a time and output
// limit). Its output is there once the command ended; until then a read of it is empty.
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalResponse,
  ReleaseTerminalResponse,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import type { ExecResult, ToolRuntime } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";

interface Terminal {
  readonly controller: AbortController;
  readonly done: Promise<ExecResult | Error>;
  result: ExecResult | undefined;
}

export class Terminals {
  readonly #runtime: ToolRuntime;
  readonly #open = new Map<string, Terminal>();
  #next = 0;

  constructor(runtime: ToolRuntime) {
    this.#runtime = runtime;
  }

  create(request: CreateTerminalRequest): CreateTerminalResponse {
    this.#next += 1;
    const terminalId = `terminal-${this.#next}`;
    const controller = new AbortController();
    const env = Object.fromEntries((request.env ?? []).map((entry) => [entry.name, entry.value]));
    const terminal: Terminal = {
      controller,
      result: undefined,
      done: this.#runtime
        .exec(request.command, request.args ?? [], {
          ...(request.cwd === undefined || request.cwd === null ? {} : { cwd: request.cwd }),
          env,
          signal: controller.signal,
          ...(request.outputByteLimit === undefined || request.outputByteLimit === null
            ? {}
            : { maxOutputBytes: request.outputByteLimit }),
        })
        .then(
          (result) => {
            terminal.result = result;
            return result;
          },
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        ),
    };
    this.#open.set(terminalId, terminal);
    return { terminalId };
  }

  output(id: string): TerminalOutputResponse {
    const result = this.#get(id).result;
    if (result === undefined) return { output: "", truncated: false };
    return {
      output: result.stdout + result.stderr,
      truncated: result.truncated,
      exitStatus: { exitCode: result.exitCode, signal: result.signal },
    };
  }

  async waitForExit(id: string): Promise<WaitForTerminalExitResponse> {
    const done = await this.#get(id).done;
    if (done instanceof Error) throw done;
    return { exitCode: done.exitCode, signal: done.signal };
  }

  kill(id: string): KillTerminalResponse {
    this.#get(id).controller.abort();
    return {};
  }

  release(id: string): ReleaseTerminalResponse {
    this.#get(id).controller.abort();
    this.#open.delete(id);
    return {};
  }

  releaseAll(): void {
    for (const terminal of this.#open.values()) terminal.controller.abort();
    this.#open.clear();
  }

  #get(id: string): Terminal {
    const terminal = this.#open.get(id);
    if (terminal === undefined) {
      throw new Oz0Error("NOT_FOUND", `no terminal ${id} in this session`, {
        data: { kind: "terminal", name: id },
      });
    }
    return terminal;
  }
}
