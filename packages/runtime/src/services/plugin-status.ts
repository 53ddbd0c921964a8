// Plugins' live status: what each admin spec's status() says now, and each runtime's state as
// the host running it last wrote it. A viewer's read; status output passes the tenant's redactor.
import type { AdminStatus } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type { PluginRuntimeView } from "../plugin-runtimes/index.js";
import type { ServiceCore } from "./core.js";

/** How long an admin spec's status() may take before it is shown as not answering. */
export const STATUS_TIMEOUT_MS = 5_000;

/** One admin spec's status. */
export interface AdminStatusView extends AdminStatus {
  /** The admin spec's name (`status` for a status-only spec). */
  readonly name: string;
}

export interface PluginStatusView {
  readonly plugin: string;
  /** Each admin spec with a status(), in registration order. */
  readonly admin: readonly AdminStatusView[];
  /** Each runtime it wants running (its `host.addRuntime` registrations). */
  readonly runtimes: readonly PluginRuntimeView[];
}

export async function pluginStatus(
  core: ServiceCore,
  caller: Caller,
  plugin?: string,
): Promise<PluginStatusView[]> {
  const tenant = core.check(caller, "plugins.status");
  const { catalog, pluginRuntimes, models } = core.deps;
  const names = plugin === undefined ? (await catalog.list(tenant)).map((one) => one.name) : [plugin];
  const redactor = await models.redactor(tenant);
  const views: PluginStatusView[] = [];
  for (const name of names) {
    const loaded = await catalog.loadInstalled(tenant, name);
    const config = await catalog.configs.effective(tenant, name, loaded);
    const admin: AdminStatusView[] = [];
    for (const registration of loaded.code?.registrations("admin") ?? []) {
      if (!registration.enabled) continue;
      const status = registration.spec.status;
      if (status === undefined) continue;
      admin.push({ name: registration.name, ...(await askStatus(() => status({ pluginId: name, config }))) });
    }
    const runtimes = await pluginRuntimes.status(tenant, name);
    views.push(redactor.json({ plugin: name, admin, runtimes }));
  }
  return views;
}

/** A status() answer checked for shape; a throw, a bad answer or no answer in time is an `error`. */
async function askStatus(ask: () => AdminStatus | Promise<AdminStatus>): Promise<AdminStatus> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<AdminStatus>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({ state: "error", message: `status() did not answer within ${STATUS_TIMEOUT_MS / 1000} s` }),
      STATUS_TIMEOUT_MS,
    );
  });
  try {
    const answer = await Promise.race([Promise.resolve().then(ask), late]);
    const states = ["ok", "degraded", "error", "off"];
    if (typeof answer !== "object" || answer === null || !states.includes(answer.state)) {
      return {
        state: "error",
        message: `status() answered ${JSON.stringify(answer)}, not { state: ok|degraded|error|off }`,
      };
    }
    return {
      state: answer.state,
      ...(typeof answer.message === "string" ? { message: answer.message } : {}),
      ...(typeof answer.details === "object" && answer.details !== null ? { details: answer.details } : {}),
    };
  } catch (error) {
    return {
      state: "error",
      message: `status() failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
