import { describe, expect, test } from "vitest";
import { isOz0Error } from "../../src/errors/index.js";
import {
  createRecordingHost,
  type ManagedChannelOptions,
  registerManagedChannelPlugin,
} from "../../src/host/index.js";

const slack: ManagedChannelOptions<{ token: string; notify: boolean }> = {
  name: "slack",
  config: { defaultConfig: { token: "", notify: false }, redact: (config) => ({ ...config, token: "***" }) },
  status: () => ({ state: "ok" }),
  supportsNotifications: true,
  configured: (config) => config.token !== "",
  notificationsEnabled: (config) => config.notify,
  build: () => ({ deliver() {} }),
  runtime: () => ({ start() {}, stop() {} }),
};

describe("registerManagedChannelPlugin", () => {
  test("registers admin, channel and runtime under one name, as a managed channel plugin does", () => {
    const host = createRecordingHost("slack-channel");
    const registration = registerManagedChannelPlugin(host, slack);
    expect(host.kinds()).toEqual(["admin", "channel", "runtime"]);
    expect(host.registrations().map((r) => `${r.kind}:${r.name}`)).toEqual([
      "admin:slack",
      "channel:slack",
      "runtime:slack",
    ]);
    expect(registration.admin.spec.redact?.({ token: "secret" })).toEqual({ token: "***" });
    expect(registration.channel.spec.supportsNotifications).toBe(true);
  });

  test("registers no runtime when the channel has no service beside its listener", () => {
    const host = createRecordingHost("p");
    const registration = registerManagedChannelPlugin(host, {
      name: "webhook",
      build: () => ({ deliver() {} }),
    });
    expect(host.kinds()).toEqual(["admin", "channel"]);
    expect(registration.runtime).toBeUndefined();
    registration.disable();
    expect(registration.enabled).toBe(false);
  });

  test("passes config to configured and notificationsEnabled; leaves notificationsEnabled out when the options do, for lint and install to check", () => {
    const host = createRecordingHost("p");
    const { channel } = registerManagedChannelPlugin(host, slack);
    expect(channel.spec.configured?.({ token: "x", notify: true })).toBe(true);
    expect(channel.spec.notificationsEnabled?.({ token: "x", notify: true })).toBe(true);
    const bare = registerManagedChannelPlugin(host, {
      name: "webhook",
      build: () => ({ deliver() {} }),
    });
    expect(bare.channel.spec.configured?.({})).toBe(true);
    expect(bare.channel.spec.notificationsEnabled).toBeUndefined();
    expect(bare.channel.spec.supportsNotifications).toBe(false);
  });

  test("disables and removes all three parts through one handle", () => {
    const host = createRecordingHost("p");
    const registration = registerManagedChannelPlugin(host, slack);
    registration.disable();
    expect(host.registrations().every((r) => !r.enabled)).toBe(true);
    registration.enable();
    expect(registration.enabled).toBe(true);
    registration.remove();
    expect(registration.removed).toBe(true);
    expect(host.registrations()).toEqual([]);
  });

  test("registers nothing when one part is refused", () => {
    const host = createRecordingHost("p");
    host.addChannel({ name: "slack", build: () => ({ deliver() {} }) });
    try {
      registerManagedChannelPlugin(host, slack);
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "DUPLICATE_REGISTRATION")).toBe(true);
    }
    expect(host.registrations().map((r) => r.kind)).toEqual(["channel"]);
  });
});
