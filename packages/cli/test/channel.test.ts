// `oz0 channel list`: the tenant's channels, configured or not, their notifications and their
// outbox counts, as text and --json, embedded and through a server.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const CHANNELS = fileURLToPath(new URL("../../../plugins/channels", import.meta.url));

let home: string;
let cleanup: () => Promise<void>;
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

describe("oz0 channel list", () => {
  it("says there are none before a channel plugin is installed", async () => {
    const listed = await run("channel", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(
      "no channels: install a plugin that registers one (such as plugins/channels)\n",
    );
  });

  it("lists each channel with whether it is configured and its outbox, as text and --json", async () => {
    const installed = await run("plugin", "install", CHANNELS);
    expect(installed.code, installed.stderr).toBe(0);
    const config = JSON.stringify({
      webhook: { secret: "0123456789abcdef-secret", url: "http://127.0.0.1:9/a" },
    });
    const set = await run("plugin", "config", "channels", "--set", config);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain("0123456789abcdef-secret");
    const listed = await run("channel", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    const empty = { inbound: 0, answering: 0, delivering: 0, delivered: 0, failed: 0 };
    expect(listed.json()).toEqual([
      {
        channel: "channels/webhook",
        plugin: "channels",
        name: "webhook",
        enabled: true,
        supportsNotifications: true,
        configured: true,
        notificationsEnabled: false,
        outbox: empty,
      },
      {
        channel: "channels/slack",
        plugin: "channels",
        name: "slack",
        enabled: true,
        supportsNotifications: true,
        configured: false,
        notificationsEnabled: false,
        outbox: empty,
      },
    ]);
    const text = await run("channel", "list");
    expect(text.stdout).toBe(
      "channels/webhook · configured · notifications off · outbox: 0 inbound, 0 answering, 0 delivering, 0 delivered, 0 failed\n" +
        "channels/slack · not configured · notifications off · outbox: 0 inbound, 0 answering, 0 delivering, 0 delivered, 0 failed\n",
    );
  });

  it("sends a message out through a channel's outbox, and refuses a channel the tenant does not have", async () => {
    const sent = await run("channel", "send", "channels/webhook", "hello there", "--to", "ops", "--json");
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.json()).toEqual({ message: expect.stringMatching(/^chm_/) });
    const listed = await run("channel", "list", "--json");
    type Listed = { channel: string; outbox: { delivering: number; delivered: number; failed: number } };
    const webhook = (listed.json() as Listed[]).find((entry) => entry.channel === "channels/webhook")!;
    // Embedded it waits for a node; through a server, oz0 serve's drain may have tried it already.
    expect(webhook.outbox.delivering + webhook.outbox.delivered + webhook.outbox.failed).toBe(1);
    const missing = await run("channel", "send", "channels/nosuch", "hi", "--to", "ops");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(
      "has no channel channels/nosuch; its channels: channels/webhook, channels/slack",
    );
  });
});
