import { describe, expect, test } from "vitest";
import { plugin, SurfaceAdapter, SurfaceEnvelope, type SurfaceResponse } from "../../src/contracts/index.js";
import { isOz0Error } from "../../src/errors/index.js";

const SlackAdapter = plugin(
  class SlackAdapter extends SurfaceAdapter {
    readonly surfaceType = "slack";
    delivered: { channel: string; text: string; thread: string }[] = [];
    ingest(raw: unknown) {
      const event = raw as { channel: string; user: string; text: string; thread_ts?: string };
      return new SurfaceEnvelope({
        surfaceType: "slack",
        channelId: event.channel,
        senderId: event.user,
        threadId: event.thread_ts ?? "",
        content: event.text,
      });
    }
    deliver(envelope: SurfaceEnvelope, response: SurfaceResponse) {
      this.delivered.push({ channel: envelope.channelId, text: response.content, thread: envelope.threadId });
    }
  },
);

describe("SurfaceAdapter", () => {
  test("turns a raw event into an envelope and delivers the answer to its thread", async () => {
    const adapter = new SlackAdapter();
    const envelope = await adapter.ingest({ channel: "C1", user: "U1", text: "hi", thread_ts: "17.5" });
    expect(envelope).toEqual({
      surfaceType: "slack",
      channelId: "C1",
      senderId: "U1",
      threadId: "17.5",
      content: "hi",
      attachments: [],
      metadata: {},
    });
    adapter.deliver(envelope, { content: "hello" });
    expect(adapter.delivered).toEqual([{ channel: "C1", text: "hello", thread: "17.5" }]);
  });

  test("starts and stops as no-ops unless the adapter listens itself", async () => {
    const adapter = new SlackAdapter();
    await expect(
      Promise.resolve(
        adapter.start({ submit: async () => {}, signal: new AbortController().signal, fail: () => {} }),
      ),
    ).resolves.toBeUndefined();
    await expect(Promise.resolve(adapter.stop())).resolves.toBeUndefined();
  });

  test("implements the surface contract", () => {
    expect(SlackAdapter.implements).toEqual(["surface"]);
    expect(SlackAdapter.pluginId).toBe("slack_adapter@v1");
  });
});

describe("SurfaceEnvelope", () => {
  test("defaults threadId, attachments and metadata, and is frozen", () => {
    const envelope = new SurfaceEnvelope({
      surfaceType: "cli",
      channelId: "tty",
      senderId: "me",
      content: "x",
    });
    expect(envelope.threadId).toBe("");
    expect(envelope.attachments).toEqual([]);
    expect(envelope.metadata).toEqual({});
    expect(Object.isFrozen(envelope)).toBe(true);
  });

  test("keeps attachments and metadata", () => {
    const envelope = new SurfaceEnvelope({
      surfaceType: "web",
      channelId: "c",
      senderId: "s",
      content: "see file",
      attachments: [{ name: "a.txt", contentType: "text/plain" }],
      metadata: { ip: "10.0.0.1" },
    });
    expect(envelope.attachments).toEqual([{ name: "a.txt", contentType: "text/plain" }]);
    expect(envelope.metadata).toEqual({ ip: "10.0.0.1" });
  });

  test("refuses an envelope missing its required strings, naming them", () => {
    try {
      new SurfaceEnvelope({ surfaceType: "web", content: "x" } as never);
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "INVALID_INPUT")).toBe(true);
      expect((error as Error).message).toContain("channelId, senderId");
    }
  });
});
