// OpenTelemetry is loaded only when an endpoint is configured: a runtime without one, running
// a job, never imports an @opentelemetry package.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const resolveTs = fileURLToPath(new URL("../store/fixtures/resolve-ts.ts", import.meta.url));
const runtimeEntry = new URL("../../src/index.ts", import.meta.url).href;
const helpdesk = fileURLToPath(new URL("../fixtures/jobs/helpdesk", import.meta.url));

/** The @opentelemetry modules a child process resolved while it opened a runtime and ran a job. */
function otelModulesLoaded(env: NodeJS.ProcessEnv): string[] {
  const script = `
    import { registerHooks } from "node:module";
    import { mkdtempSync } from "node:fs";
    import { tmpdir } from "node:os";
    import { join } from "node:path";
    const seen = [];
    registerHooks({
      resolve(specifier, context, next) {
        if (specifier.startsWith("@opentelemetry/")) seen.push(specifier);
        return next(specifier, context);
      },
    });
    const { Runtime } = await import(${JSON.stringify(runtimeEntry)});
    const runtime = await Runtime.open({ home: mkdtempSync(join(tmpdir(), "oz0-lazy-")), memory: true, defaultPlugins: [] });
    await runtime.catalog.install("default", ${JSON.stringify(helpdesk)});
    const job = await runtime.jobs.start({ tenant: "default", agent: "helpdesk/triage", input: "ticket 7" });
    await runtime.jobs.run(job.id, { tenant: "default" });
    await runtime.close();
    process.stdout.write(JSON.stringify([...new Set(seen)]));
  `;
  const out = execFileSync(
    process.execPath,
    ["--conditions=@oz0/source", "--no-warnings", "--import", resolveTs, "--input-type=module", "-e", script],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, encoding: "utf8", timeout: 300_000 },
  );
  return JSON.parse(out) as string[];
}

describe("OpenTelemetry", () => {
  test("is not loaded by a runtime without an OTLP endpoint", () => {
    expect(otelModulesLoaded({})).toEqual([]);
  });

  test("is loaded once OTEL_EXPORTER_OTLP_ENDPOINT names one", () => {
    // Nothing listens there: the spans are dropped, and the job runs all the same.
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_TIMEOUT: "200" };
    expect(otelModulesLoaded(env)).toContain("@opentelemetry/sdk-trace");
  });
});
