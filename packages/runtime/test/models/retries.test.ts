import { getEventListeners } from "node:events";
import { isOz0Error, type Oz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryAfterMs } from "../../src/models/index.js";
import { AttemptFailure, withRetries } from "../../src/models/retry.js";
import { FakeModelServer } from "./fake-servers/server.js";
import { context, FORMATS, KEY, pointedAt, request, resolverFor, UNHURRIED_TIMEOUT_MS } from "./helpers.js";

describe.each(FORMATS)(
  "retries and timeouts of $provider ($format)",
  ({ format, provider, model: modelId }) => {
    let server: FakeModelServer;
    beforeAll(async () => {
      server = await FakeModelServer.start(format, { apiKey: KEY });
    });
    afterAll(() => server.close());

    const policy = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: UNHURRIED_TIMEOUT_MS, retries: 3 };
    const resolve = resolverFor({ policy });
    const model = (settings: Record<string, unknown> = {}) =>
      resolve({ use: `${provider}:${modelId}` }, context(pointedAt(server, provider, settings)));

    it("retries a 429, honouring retry-after", async () => {
      const before = server.requests.length;
      server.reply({ fail: 429, message: "slow down", headers: { "retry-after": "1" } }, { text: "ok" });
      const started = Date.now();
      const reply = await (await model()).generate(request());
      expect(reply.text).toBe("ok");
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.requests.length - before).toBe(2);
    });

    it("retries server faults (500, 503) until one succeeds", async () => {
      const before = server.requests.length;
      server.reply({ fail: 500 }, { fail: 503 }, { text: "ok" });
      expect((await (await model()).generate(request())).text).toBe("ok");
      expect(server.requests.length - before).toBe(3);
    });

    it("retries a connection dropped before any answer", async () => {
      server.reply({ drop: "before-response" }, { text: "ok" });
      expect((await (await model()).generate(request())).text).toBe("ok");
    });

    it("retries a connection dropped mid-answer, streaming no text twice", async () => {
      server.reply({ drop: "mid-stream", text: "billing " }, { text: "billing queue" });
      const pieces: string[] = [];
      const reply = await (await model()).generate(request({ onText: (delta) => pieces.push(delta) }));
      expect(reply.text).toBe("billing queue");
      expect(pieces.join("")).toBe("billing queue");
    });

    it("times out a server that stalls, and tries again", async () => {
      const before = server.requests.length;
      // The first answer never comes: only the timeout can end that attempt. The timeout is
      // also the second attempt's, whose answer is on its way at once: long enough for it on a
      // loaded machine, short enough to wait out. (That a timeout is retried at all, "timeouts"
      // below shows with no answer ever.)
      server.reply({ stall: "forever" }, { text: "ok" });
      const impatient = resolverFor({ policy: { ...policy, timeoutMs: 2_000 } });
      const reply = await (
        await impatient({ use: `${provider}:${modelId}` }, context(pointedAt(server, provider)))
      ).generate(request());
      expect(reply.text).toBe("ok");
      expect(server.requests.length - before).toBe(2);
    });

    it("fails with MODEL_CALL_FAILED after its retries, saying how many attempts it made", async () => {
      server.reply({ fail: 503 }, { fail: 503 }, { fail: 503 }, { fail: 503 });
      const error = (await (
        await model()
      )
        .generate(request())
        .catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(isOz0Error(error, "MODEL_CALL_FAILED")).toBe(true);
      expect(error.message).toContain(`the model call to ${provider}:${modelId} failed after 4 attempts`);
      expect(error.data).toEqual({
        model: `${provider}:${modelId}`,
        attempts: 4,
        retryable: true,
        status: 503,
      });
      expect(server.pending).toBe(0);
    });

    it("takes the retries a provider is configured with", async () => {
      server.reply({ fail: 500 });
      const once = (await (
        await resolve(
          { use: `${provider}:${modelId}` },
          context({
            [`provider.${provider}`]: { baseUrl: server.url, apiKeyEnv: "OZ0_TEST_KEY", retries: 0 },
          }),
        )
      )
        .generate(request())
        .catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(once.data).toMatchObject({ attempts: 1 });
      expect(once.message).toContain("failed after 1 attempt (retries are off for this provider)");
    });

    it("does not retry a request the server refuses (400)", async () => {
      const before = server.requests.length;
      server.reply({ fail: 400, message: "bad tool schema" });
      const error = (await (
        await model()
      )
        .generate(request())
        .catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(error.data).toMatchObject({ attempts: 1, retryable: false, status: 400 });
      expect(error.message).toContain("bad tool schema");
      expect(server.requests.length - before).toBe(1);
    });

    it("refuses a wrong key at once, says how to set one, and never repeats the key", async () => {
      const wrong = "sk-wrong-9876543210zyxwvutsrqponm";
      const error = (await await resolve(
        { use: `${provider}:${modelId}` },
        context({ [`provider.${provider}`]: { baseUrl: server.url, apiKeyEnv: "WRONG" } }),
      ).catch((thrown: unknown) => thrown)) as Oz0Error;
      // The key variable is not set: the call is refused before it is made.
      expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
      expect(error.message).toContain("WRONG, which is not set");
      const withWrong = resolverFor({ env: { OZ0_TEST_KEY: wrong } });
      const refused = (await (
        await withWrong({ use: `${provider}:${modelId}` }, context(pointedAt(server, provider)))
      )
        .generate(request())
        .catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(isOz0Error(refused, "MODEL_CALL_FAILED")).toBe(true);
      expect(refused.data).toMatchObject({ attempts: 1, status: 401 });
      expect(refused.message).toContain(`oz0 provider set ${provider} --api-key-stdin`);
      expect(refused.message).toContain("[redacted]");
      expect(JSON.stringify({ message: refused.message, data: refused.data })).not.toContain(wrong);
    });

    it("stops waiting at once when the job is stopped", async () => {
      server.reply({ fail: 429, headers: { "retry-after": "30" } });
      const controller = new AbortController();
      const stopping = (await model()).generate(request({ signal: controller.signal }));
      // Stopped while it waits out the 30 s the server asked for: any other end would be a
      // different error, after the wait.
      setTimeout(() => controller.abort(new Error("cancelled")), 100);
      await expect(stopping).rejects.toThrow("cancelled");
    });
  },
);

describe("retry-after", () => {
  it("reads seconds, milliseconds and an HTTP date", () => {
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2_000);
    expect(retryAfterMs({ "retry-after-ms": "250" })).toBe(250);
    expect(retryAfterMs({ "Retry-After": "Thu, 01 Jan 2026 00:00:10 GMT" }, Date.UTC(2026, 0, 1))).toBe(
      10_000,
    );
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });

  it("fails at once when the server asks for a longer wait than oz0 honours", async () => {
    const server = await FakeModelServer.start("openai-chat");
    try {
      server.reply({ fail: 429, headers: { "retry-after": "3600" } });
      const model = await resolverFor()(
        { use: "openai-compatible:m" },
        context({ "provider.openai-compatible": { baseUrl: server.url } }),
      );
      const error = (await model.generate(request()).catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(error.message).toContain("the server asked to wait 3600 s before trying again");
      expect(error.data).toMatchObject({ attempts: 1, status: 429 });
    } finally {
      await server.close();
    }
  });
});

describe("errors inside a stream", () => {
  it("retries Anthropic's overloaded_error sent mid-stream", async () => {
    const server = await FakeModelServer.start("anthropic", { apiKey: KEY });
    try {
      server.reply({ streamError: "overloaded_error", message: "Overloaded" }, { text: "ok" });
      const model = await resolverFor()({ use: "anthropic:claude" }, context(pointedAt(server, "anthropic")));
      expect((await model.generate(request())).text).toBe("ok");
    } finally {
      await server.close();
    }
  });

  it("retries OpenAI's server_error sent mid-stream", async () => {
    const server = await FakeModelServer.start("openai-responses", { apiKey: KEY });
    try {
      server.reply({ streamError: "server_error", message: "try again" }, { text: "ok" });
      const model = await resolverFor()({ use: "openai:gpt-4.1" }, context(pointedAt(server, "openai")));
      expect((await model.generate(request())).text).toBe("ok");
    } finally {
      await server.close();
    }
  });
});

describe("timeouts", () => {
  it("fails a call whose server stays silent through every attempt, naming the timeout", async () => {
    const server = await FakeModelServer.start("openai-chat");
    try {
      server.reply({ stall: "forever" }, { stall: "forever" });
      const model = await resolverFor({ policy: { timeoutMs: 200, retries: 1, baseDelayMs: 5 } })(
        { use: "openai-compatible:m" },
        context({ "provider.openai-compatible": { baseUrl: server.url } }),
      );
      const error = (await model.generate(request()).catch((thrown: unknown) => thrown)) as Oz0Error;
      expect(isOz0Error(error, "MODEL_CALL_FAILED")).toBe(true);
      expect(error.message).toContain(
        "failed after 2 attempts (it was retried once): no answer for 0.2 s (the provider's timeout)",
      );
    } finally {
      await server.close();
    }
  });
});

describe("an attempt's timer", () => {
  it("keeps one listener on the job's signal however many calls it makes, and the signal still stops the call in flight", async () => {
    const job = new AbortController();
    const policy = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 60_000, retries: 0, maxRetryAfterMs: 60_000 };
    const classify = () => new AttemptFailure("failed", { retryable: false });
    const signals: AbortSignal[] = [];
    for (let call = 0; call < 50; call += 1) {
      await withRetries(
        async (attempt) => {
          signals.push(attempt.signal);
          return call;
        },
        { policy, signal: job.signal, classify },
      );
    }
    expect(getEventListeners(job.signal, "abort").length).toBeLessThanOrEqual(1);
    const inFlight = withRetries(
      (attempt) =>
        new Promise((_, reject) =>
          attempt.signal.addEventListener("abort", () => reject(attempt.signal.reason)),
        ),
      { policy, signal: job.signal, classify },
    );
    job.abort(new Error("cancelled"));
    await expect(inFlight).rejects.toThrow("cancelled");
    // The calls that had ended were let go: the job's stop reaches none of them.
    expect(signals.every((signal) => !signal.aborted)).toBe(true);
  });
});
