import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { openStore, redactUrl } from "../../src/store/index.js";

describe("the PostgreSQL store", () => {
  it("says which database it could not reach, with the password hidden", async () => {
    const opening = openStore({ databaseUrl: "postgres://oz0:s3cret@127.0.0.1:1/oz0" });
    await expect(opening).rejects.toSatisfy((error) => isOz0Error(error, "INTERNAL"));
    await expect(opening).rejects.toThrow(
      /^Cannot reach the PostgreSQL database at postgres:\/\/oz0:\*\*\*@127\.0\.0\.1:1\/oz0 \(OZ0_DATABASE_URL\): .+\. Check that the server is running and the URL is right\.$/,
    );
    await expect(opening).rejects.not.toThrow(/s3cret/);
  });

  it("hides only the password of a URL", () => {
    expect(redactUrl("postgres://oz0:pw@db.example:5432/oz0?sslmode=require")).toBe(
      "postgres://oz0:***@db.example:5432/oz0?sslmode=require",
    );
    expect(redactUrl("postgres://oz0@db.example/oz0")).toBe("postgres://oz0@db.example/oz0");
  });
});
