// registerManagedChannelPlugin: a managed messaging integration registers admin config and a
// channel, always together and under one name; this does it in one call, and all or nothing.
// The channel's long-lived service is its listener (`start`/`stop`): the host reconciles it
// from the plugin's config as the runtime `channel:<name>`, once per tenant cluster-wide, so
// no RuntimeSpec is needed for it. A plugin with a service beside the channel gives `runtime`.

import type { Host, Registration, RegistrationHandle } from "./host.js";
import type {
  AdminSpec,
  Channel,
  ChannelContext,
  PluginConfig,
  RuntimeContext,
  RuntimeInstance,
} from "./specs.js";

type Awaitable<T> = T | Promise<T>;

export interface ManagedChannelOptions<Config extends PluginConfig = PluginConfig> {
  /** The name of the admin spec, the channel and the runtime alike. */
  readonly name: string;
  /** Admin config: defaults, form schema, validation, redaction. */
  readonly config?: Pick<AdminSpec<Config>, "defaultConfig" | "schema" | "validate" | "redact">;
  /** Live status output, shown beside the config. */
  readonly status?: AdminSpec<Config>["status"];
  readonly supportsNotifications?: boolean;
  configured?(config: Config): boolean;
  notificationsEnabled?(config: Config): boolean;
  /** Builds the channel that ingests events and delivers answers. */
  build(ctx: ChannelContext): Awaitable<Channel>;
  /**
   * A long-lived service beside the channel's own listener, registered as the runtime `<name>`;
   * left out, none is. The channel's listener is its `start`/`stop`, run by the host either way.
   */
  runtime?(ctx: RuntimeContext): Awaitable<RuntimeInstance>;
}

export interface ManagedChannelRegistration extends RegistrationHandle {
  readonly admin: Registration<"admin">;
  readonly channel: Registration<"channel">;
  /** Only when `runtime` was given. */
  readonly runtime: Registration<"runtime"> | undefined;
}

/**
 * Registers admin and channel (and the runtime, when given) for a managed channel. If any part is refused, the
 * parts already registered are removed again before the error is thrown.
 */
export function registerManagedChannelPlugin<Config extends PluginConfig>(
  host: Host,
  options: ManagedChannelOptions<Config>,
): ManagedChannelRegistration {
  const done: RegistrationHandle[] = [];
  const keep = <R extends RegistrationHandle>(registration: R): R => {
    done.push(registration);
    return registration;
  };
  try {
    const admin = keep(
      host.addAdmin<Config>({ ...options.config, name: options.name, status: options.status }),
    );
    const channel = keep(
      host.addChannel({
        name: options.name,
        supportsNotifications: options.supportsNotifications ?? false,
        configured: (config) => options.configured?.(config as Config) ?? true,
        // Given only when the options give it: lint and install check the pair as written.
        ...(options.notificationsEnabled === undefined
          ? {}
          : {
              notificationsEnabled: (config: PluginConfig) =>
                options.notificationsEnabled?.(config as Config) ?? false,
            }),
        build: (ctx) => options.build(ctx),
      }),
    );
    const service = options.runtime;
    const runtime =
      service === undefined
        ? undefined
        : keep(host.addRuntime({ name: options.name, build: (ctx) => service(ctx) }));
    return {
      admin,
      channel,
      runtime,
      get enabled() {
        return done.every((part) => part.enabled);
      },
      get removed() {
        return done.every((part) => part.removed);
      },
      enable: () => {
        for (const part of done) part.enable();
      },
      disable: () => {
        for (const part of done) part.disable();
      },
      remove: () => {
        for (const part of done) part.remove();
      },
    };
  } catch (error) {
    for (const part of done) part.remove();
    throw error;
  }
}
