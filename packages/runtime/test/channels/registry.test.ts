// A channel as its plugin builds it: what the built channel offers must be what its spec says,
// since oz0 calls only what the spec declares.
import type { Channel, ChannelSpec } from "@oz0/sdk";
import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { type ChannelEntry, ChannelRegistry } from "../../src/channels/registry.js";
import type { LoadedPlugin } from "../../src/plugin-dir/index.js";
import type { Store } from "../../src/store/index.js";

function entryOf(spec: ChannelSpec): ChannelEntry {
  return {
    tenant: "default",
    plugin: "pagers",
    name: spec.name,
    spec,
    enabled: true,
    supportsNotifications: spec.supportsNotifications === true,
    configured: true,
    notificationsEnabled: false,
    loaded: {} as LoadedPlugin,
    config: {},
  };
}

// Building a channel reads neither the store nor the plugin source.
const registry = new ChannelRegistry({} as Store, {
  loadInstalled: () => Promise.reject(new Error("not read")),
  config: () => Promise.reject(new Error("not read")),
});

const pager: Channel = { deliver: () => undefined, notify: () => undefined };

describe("building a channel", () => {
  it("refuses a built channel with notify whose spec does not say supportsNotifications, naming the fix", async () => {
    const error = await registry
      .channel(entryOf({ name: "pager", build: () => pager }), () => Promise.resolve())
      .catch((caught: unknown) => caught);
    expect(isOz0Error(error) && error.code).toBe("INVALID_PLUGIN");
    expect((error as Error).message).toBe(
      "channel pagers/pager: build(ctx) returned a channel with notify(notification), but its spec does not say supportsNotifications: true, so oz0 would never call it; set supportsNotifications: true with notificationsEnabled(config), or remove notify.",
    );
  });

  it("builds a channel with notify whose spec supports notifications", async () => {
    const spec: ChannelSpec = {
      name: "pager",
      supportsNotifications: true,
      notificationsEnabled: () => true,
      build: () => pager,
    };
    expect(await registry.channel(entryOf(spec), () => Promise.resolve())).toBe(pager);
  });
});
