// Failed sign-ins are rate-limited: past the limit the server answers 429 with Retry-After.
import { describe, expect, it } from "vitest";
import { KEYS, LAB, testServer } from "./helpers.js";

async function errorOf(response: Response): Promise<{ code: string; status: number }> {
  return ((await response.json()) as { error: { code: string; status: number } }).error;
}

describe("rate limits", () => {
  it("answers too many failed sign-ins for a key with 429 TOO_MANY_REQUESTS and Retry-After", async () => {
    const own = await testServer();
    try {
      // The shape of a real key, with an id no key has.
      const forged = {
        authorization: `Bearer ${KEYS.viewer.replace(/^(oz0k_)([^_]+)/, (_, p: string, id: string) => p + "0".repeat(id.length))}`,
      };
      const answers: Response[] = [];
      for (let i = 0; i < 6; i++) answers.push(await own.request(`/v1/t/${LAB}/jobs`, { headers: forged }));
      expect(answers.slice(0, 5).map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
      const limited = answers[5]!;
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await errorOf(limited)).toMatchObject({ code: "TOO_MANY_REQUESTS", status: 429 });
    } finally {
      await own.close();
    }
  });
});
