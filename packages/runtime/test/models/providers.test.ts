import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "./fake-servers/server.js";
import { context, FORMATS, KEY, pointedAt, request, resolverFor } from "./helpers.js";

describe.each(FORMATS)(
  "the $provider provider ($format)",
  ({ format, provider, model: modelId, nameLimit }) => {
    let server: FakeModelServer;
    beforeAll(async () => {
      server = await FakeModelServer.start(format, { apiKey: KEY });
    });
    afterAll(() => server.close());

    const resolve = resolverFor();
    const settings = () => pointedAt(server, provider);

    it("streams a text answer and reports usage with cached tokens", async () => {
      server.reply({ text: "billing queue", usage: { input: 120, output: 7, cached: 100 } });
      const model = await resolve({ use: `${provider}:${modelId}` }, context(settings()));
      const pieces: string[] = [];
      const reply = await model.generate(request({ functions: [], onText: (delta) => pieces.push(delta) }));
      expect(reply.text).toBe("billing queue");
      expect(pieces.join("")).toBe("billing queue");
      expect(pieces.length).toBeGreaterThan(1);
      expect(reply.calls).toEqual([]);
      expect(reply.usage).toEqual({ inputTokens: 120, outputTokens: 7, cachedInputTokens: 100 });
    });

    it("offers the functions and returns the calls the model makes, with their arguments", async () => {
      server.reply({ calls: [{ name: "tickets__lookup", args: { id: 7 } }] });
      const model = await resolve({ use: `${provider}:${modelId}` }, context(settings()));
      const reply = await model.generate(request());
      // wireId is the model's own id for the call, which traces report as gen_ai.tool.call.id.
      expect(reply.calls).toEqual([
        { name: "tickets__lookup", args: { id: 7 }, wireId: expect.stringMatching(/^(call|toolu)_\S+$/) },
      ]);
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      expect(sent).toContain("tickets__lookup");
      expect(sent).toContain("Look a ticket up by id.");
    });

    it("sends a tool call and its result back in the format's own shape", async () => {
      server.reply({ text: "billing" });
      const model = await resolve({ use: `${provider}:${modelId}` }, context(settings()));
      await model.generate(
        request({
          step: 2,
          messages: [
            { role: "system", content: "You sort tickets." },
            { role: "user", content: "ticket 7" },
            { role: "assistant", calls: [{ id: "1.1", name: "tickets__lookup", args: { id: 7 } }] },
            {
              role: "tool",
              callId: "1.1",
              name: "tickets__lookup",
              content: { queue: "billing" },
              isError: false,
            },
          ],
        }),
      );
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      expect(sent).toContain("call_1_1");
      expect(sent).toContain('\\"queue\\":\\"billing\\"');
    });

    it(`accepts function names up to ${nameLimit} characters for this format`, async () => {
      const model = await resolve({ use: `${provider}:${modelId}` }, context(settings()));
      expect(model.nameLimit).toBe(nameLimit);
      expect(model.id).toBe(`${provider}:${modelId}`);
    });

    it("sends the key the tenant configured", async () => {
      server.reply({ text: "ok" });
      const model = await resolve({ use: `${provider}:${modelId}` }, context(settings()));
      await model.generate(request());
      const headers = server.requests.at(-1)?.headers ?? {};
      expect(headers.authorization ?? headers["x-api-key"]).toContain(KEY);
    });
  },
);
