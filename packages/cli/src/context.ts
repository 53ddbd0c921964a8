// Opens the runtime a command acts on, from the global options: --home or OZ0_HOME, and
// OZ0_DATABASE_URL for PostgreSQL, and builds the command's caller once: the person at this
// terminal, admin of --tenant. The runtime is loaded here, when a command needs it, and closed
// when the command ends. Commands call only its services, as that caller.
import type { Caller, Runtime, Services } from "@oz0/runtime";
import { makeFolder } from "./folders.js";
import type { Output } from "./output.js";

/** What a command acts through: the runtime's services, as the command's caller. */
export interface Session {
  readonly services: Services;
  readonly caller: Caller;
  /** The process-wide runtime, for what is no tenant's operation (`oz0 worker`). */
  readonly runtime: Runtime;
}

export async function withRuntime<T>(
  out: Output,
  work: (session: Session) => Promise<T>,
  options: { readonly leaseMs?: number | undefined } = {},
): Promise<T> {
  const { defaultHome, localAdmin, Runtime } = await import("@oz0/runtime");
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
