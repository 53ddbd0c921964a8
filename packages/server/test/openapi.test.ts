// The OpenAPI document: generated from the zod schemas that validate requests, valid by a
// maintained validator, and enough for the official openapi-fetch client to run a job end to end.
import { validate } from "@readme/openapi-parser";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, LAB, type TestServer, testServer } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
}

async function documentOf(): Promise<Document> {
  const response = await test.request("/v1/openapi.json");
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

/** The path template of an operation, read from the document rather than written here. */
function pathOf(document: Document, operationId: string): string {
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const operation of Object.values(operations)) if (operation.operationId === operationId) return path;
  }
  throw new Error(`the document has no operation ${operationId}`);
}

describe("the OpenAPI document", () => {
  it("is an OpenAPI 3.1 document that a maintained validator accepts", async () => {
    const document = await documentOf();
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("describes every jobs route under /v1/t/{tenant}", async () => {
    const document = await documentOf();
    const ids = ["startJob", "getJob", "searchJobs", "cancelJob", "answerJob", "jobEvents"];
    for (const id of ids) expect(pathOf(document, id).startsWith("/v1/t/{tenant}/jobs")).toBe(true);
  });

  it("runs a job end to end through openapi-fetch over the document's paths", async () => {
    const document = await documentOf();
    const client = createClient<Record<string, Record<string, unknown>>>({
      baseUrl: test.url,
      headers: { authorization: `Bearer ${KEYS.runner}` },
    });
    const startPath = pathOf(document, "startJob");
    const started = await (
      client as unknown as {
        POST(path: string, init: unknown): Promise<{ data?: { id: string }; response: Response }>;
      }
    ).POST(startPath, {
      params: { path: { tenant: LAB } },
      body: { agent: "helpdesk/triage", input: "ticket 7" },
    });
    expect(started.response.status).toBe(201);
    const id = started.data?.id ?? "";
    const getPath = pathOf(document, "getJob");
    const get = client as unknown as {
      GET(path: string, init: unknown): Promise<{ data?: { status: string; output: unknown } }>;
    };
    for (;;) {
      const { data } = await get.GET(getPath, { params: { path: { tenant: LAB, id } } });
      if (data?.status === "succeeded") {
        expect(data.output).toBe("billing");
        break;
      }
      expect(["queued", "running"]).toContain(data?.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
