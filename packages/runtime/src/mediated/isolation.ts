// How strongly a tool's processes are kept apart from the machine. The default confines what
// oz0 itself does (paths, limits, environment) but a process still runs as the worker's user
// on the worker's machine: it can read what that user can. Where bubblewrap (`bwrap`) is
// installed and user namespaces are allowed, `bwrap` runs each process in a sandbox that sees
// only the system's read-only folders and the call's roots, with no network and its own
// process tree. `OZ0_TOOL_ISOLATION` chooses: `auto` (the default: bwrap when it works),
// `none`, or `bwrap` (refused when it does not work here).
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { Oz0Error } from "@oz0/sdk";
import type { MediatedRoot } from "./roots.js";

export type Isolation =
  | { readonly mode: "none"; readonly reason: string }
  | { readonly mode: "bwrap"; readonly program: string; readonly reason: string };

let detected: Isolation | undefined;

/** The isolation a tool's processes get on this machine, detected once; `reason` says why. */
export function processIsolation(setting = process.env.OZ0_TOOL_ISOLATION ?? "auto"): Isolation {
  if (setting === "none") return { mode: "none", reason: "OZ0_TOOL_ISOLATION=none" };
  if (setting !== "auto" && setting !== "bwrap") {
    throw new Oz0Error(
      "INVALID_INPUT",
      `OZ0_TOOL_ISOLATION is '${setting}': write auto (the default), none or bwrap`,
    );
  }
  detected ??= detectBwrap();
  if (setting === "bwrap" && detected.mode !== "bwrap") {
    throw new Oz0Error(
      "NOT_SUPPORTED",
      `OZ0_TOOL_ISOLATION=bwrap, and bubblewrap does not work here: ${detected.reason}`,
      { data: { feature: "bwrap" } },
    );
  }
  return detected;
}

function detectBwrap(): Isolation {
  const program = onPath("bwrap");
  if (program === undefined) {
    return {
      mode: "none",
      reason: "bubblewrap (bwrap) is not installed: processes run as this user, unsandboxed",
    };
  }
  const tried = spawnSync(program, ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"], {
    timeout: 5000,
    stdio: "ignore",
  });
  if (tried.status !== 0) {
    return {
      mode: "none",
      reason: `bubblewrap (${program}) cannot make a sandbox here (user namespaces disabled?): processes run as this user, unsandboxed`,
    };
  }
  return {
    mode: "bwrap",
    program,
    reason: `bubblewrap (${program}): each process sees only the system folders and its roots`,
  };
}

/**
 * bubblewrap's arguments for a process whose roots are `roots`: the system's folders
 * read-only, a fresh /tmp, /dev and /proc, the roots (read-only unless writable), nothing of
 * anyone's home folders or oz0's, no network, and a process tree that dies with the tool's call.
 */
export function sandboxArgs(
  roots: readonly (MediatedRoot & { readonly real: string })[],
  cwd: string,
): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session"];
  for (const folder of ["/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc"]) {
    args.push("--ro-bind-try", folder, folder);
  }
  args.push("--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc");
  for (const root of roots) args.push(root.writable ? "--bind" : "--ro-bind", root.real, root.real);
  args.push("--chdir", cwd);
  return args;
}

function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
