// Opens what a command acts on, from the global options, and builds the command's caller once.
// Embedded (the default): the runtime of --home or OZ0_HOME (OZ0_DATABASE_URL for PostgreSQL),
// loaded when a command needs it and closed when it ends, as the person at this terminal, admin
// of --tenant. With --server (or OZ0_SERVER): that server's API, as its API key's caller, in the
// same --tenant. Commands call only the services `CliServices` lists, which both offer.
import type { Caller, Runtime, Services } from "@oz0/runtime";
import { makeFolder } from "./folders.js";
import type { Output } from "./output.js";

/**
 * The service methods the CLI's commands call, area by area: the embedded `Services` and the
 * server's client (`remote/`) are both checked against it, so a command works the same through
 * either. A command that needs more than these runs only here (`withLocalRuntime`).
 */
export interface CliServices {
  readonly jobs: Pick<
    Services["jobs"],
    | "get"
    | "search"
    | "events"
    | "answerCard"
    | "liveWorkers"
    | "start"
    | "run"
    | "runOn"
    | "resume"
    | "cancel"
    | "answer"
    | "retry"
  >;
  readonly chat: Pick<Services["chat"], "open" | "say" | "end">;
  readonly catalog: Pick<Services["catalog"], "entries" | "lookup">;
  readonly plugins: Pick<
    Services["plugins"],
    "list" | "inspect" | "status" | "install" | "update" | "remove" | "grant" | "revoke"
  >;
  readonly pluginConfig: Pick<Services["pluginConfig"], "show" | "set" | "unset">;
  readonly tools: Pick<Services["tools"], "call">;
  readonly policy: Pick<Services["policy"], "list" | "set" | "remove">;
  readonly approvals: Pick<Services["approvals"], "list" | "decide">;
  readonly killSwitches: Pick<Services["killSwitches"], "list" | "kill" | "revive">;
  readonly inventory: Pick<Services["inventory"], "list" | "set">;
  readonly models: Pick<
    Services["models"],
    | "aliases"
    | "setAlias"
    | "removeAlias"
    | "prices"
    | "setPrice"
    | "removePrice"
    | "providers"
    | "setProvider"
    | "removeProvider"
  >;
  readonly identity: Pick<
    Services["identity"],
    | "addMember"
    | "listMembers"
    | "removeMember"
    | "createKey"
    | "listKeys"
    | "revokeKey"
    | "createTenant"
    | "listTenants"
    | "addUser"
    | "listUsers"
    | "removeUser"
  >;
  readonly audit: Pick<Services["audit"], "list">;
  readonly routines: Pick<
    Services["routines"],
    "list" | "fire" | "pause" | "resume" | "history" | "add" | "remove" | "secret"
  >;
  readonly skills: Pick<Services["skills"], "proposals" | "proposal" | "approve" | "reject">;
  readonly mcp: Pick<Services["mcp"], "status" | "secrets" | "setSecret" | "removeSecret" | "keepSecrets">;
  readonly remote: Pick<Services["remote"], "secrets" | "setSecret">;
  readonly records: Pick<
    Services["records"],
    | "list"
    | "get"
    | "history"
    | "retention"
    | "setRetention"
    | "sweep"
    | "holds"
    | "hold"
    | "release"
    | "erase"
  >;
  readonly nodes: Pick<Services["nodes"], "list" | "pools" | "setPool" | "removePool">;
  readonly channels: Pick<Services["channels"], "list" | "send">;
}

/** What a command acts through: the services, as the command's caller. */
export interface Session {
  readonly services: CliServices;
  readonly caller: Caller;
}

/** A command that runs only on this machine: every service, and the process-wide runtime. */
export interface LocalSession {
  readonly services: Services;
  readonly caller: Caller;
  /** For what is no tenant's operation (`oz0 worker`). */
  readonly runtime: Runtime;
}

/** Runs `work` against the server of --server when one is given, else the embedded runtime. */
export async function withRuntime<T>(out: Output, work: (session: Session) => Promise<T>): Promise<T> {
  if (out.options.server === undefined) return withLocalRuntime(out, work);
  const { remoteSession } = await import("./remote/index.js");
  return work(await remoteSession(out.options));
}

/** Runs `work` against the embedded runtime; a command that calls it refuses --server first (program.ts). */
export async function withLocalRuntime<T>(
  out: Output,
  work: (session: LocalSession) => Promise<T>,
  options: { readonly leaseMs?: number | undefined } = {},
): Promise<T> {
  const { defaultHome, localAdmin, Runtime } = await import("@oz0/runtime");
  if (out.options.server !== undefined) {
    const { Oz0Error } = await import("@oz0/sdk");
    throw new Oz0Error("INTERNAL", "a command that runs only here was given --server and did not refuse it");
  }
  const home = out.options.home ?? defaultHome();
  const databaseUrl = process.env.OZ0_DATABASE_URL;
  // Owner-only: the home keeps the database and its encryption key.
  if (databaseUrl === undefined || databaseUrl === "")
    await makeFolder(home, { said: "--home", issue: "home" }, { mode: 0o700 });
  const runtime = await Runtime.open({ home, databaseUrl, leaseMs: options.leaseMs });
  try {
    return await work({ services: runtime.services, caller: localAdmin(out.options.tenant), runtime });
  } finally {
    warnAboutDefaults(out, runtime);
    await runtime.close();
  }
}

/**
 * A default plugin (std) that did not install, or a database file others can read, is worth a
 * line on stderr, but not a failure.
 */
function warnAboutDefaults(out: Output, runtime: Runtime): void {
  const messages = [
    ...runtime.warnings,
    ...runtime.defaultProblems.map(
      (problem) =>
        `the default plugin ${problem.plugin} was not installed in tenant ${problem.tenant}: ${problem.reason}`,
    ),
  ];
  for (const message of messages) {
    if (out.json) out.writeJson({ warning: { message } }, { stderr: true });
    else out.stderr(`oz0: warning: ${message}\n`);
  }
}
