// The console's job page for a 1,000-step job: how long it takes to open, from navigation until
// the timeline is drawn (the job's answer card on the page; the page opens on the job's newest
// events, folds the older rows it has, and reads the rest only when asked; after the timed runs
// it asks, and checks that every call is then drawn), in Debian's chromium driven by
// playwright-core against a real server on loopback. The job (one tool call per step, on the
// offline test model) runs first, embedded; then the page is opened RUNS times in a fresh
// profile, signed in, and the median and slowest are printed with the API requests it made.
// Run it with `npm run bench:console` after `npm run build` (the console's assets).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Runtime } from "@oz0/runtime";
import { startServer } from "@oz0/server";
import { chromium } from "playwright-core";

const STEPS = 1000;
const RUNS = 5;
const TENANT = "lab";
const PASSWORD = "a long enough password";
const ROOT = { tenant: "default", actor: "user:root", role: "admin", agents: ["*"] };
const ADMIN = { tenant: TENANT, actor: "user:root", role: "admin", agents: ["*"] };

/** A plugin whose agent calls its tool once a step, STEPS times, then answers. */
async function writePlugin(dir) {
  await mkdir(join(dir, "scripts"), { recursive: true });
  await writeFile(
    join(dir, "plugin.yaml"),
    [
      'schema: "1.0"',
      "name: long",
      "version: 1.0.0",
      "description: A job of a thousand steps.",
      "main: index.js",
      "capabilities: [tool]",
      "tools:",
      "  - id: counter",
      "    description: Counts.",
      "agents:",
      "  - name: marathon",
      "    description: Counts to a thousand, one step at a time.",
      "    input: text",
      "    output: text",
      "    tools: [counter.next]",
      `    limits: { max_turns: ${STEPS + 1}, max_tokens: 100000000 }`,
      "    model: { use: test, script: scripts/marathon.yaml }",
      "",
    ].join("\n"),
  );
  await writeFile(
    join(dir, "index.js"),
    `export default { setup(host) { host.addTool({ name: "counter", description: "Counts.", build: () => ({ functions: [{ name: "next", description: "The next number.", input: { type: "object", properties: { n: { type: "integer" } } }, run: async (args) => ({ n: args.n }) }] }) }); } };\n`,
  );
  const turns = Array.from(
    { length: STEPS },
    (_, n) => `  - call: { function: counter__next, args: { n: ${n + 1} } }`,
  );
  await writeFile(
    join(dir, "scripts", "marathon.yaml"),
    `turns:\n${turns.join("\n")}\n  - text: "counted"\n`,
  );
}

const home = await mkdtemp(join(tmpdir(), "oz0-bench-console-"));
try {
  const plugin = join(home, "long");
  await writePlugin(plugin);
  const runtime = await Runtime.open({ home, defaultPlugins: [] });
  await runtime.identity.createTenant(ROOT, TENANT);
  await runtime.catalog.install(TENANT, plugin);
  await runtime.identity.addUser(ROOT, "ada", PASSWORD);
  await runtime.identity.addMember(ADMIN, { user: "ada", role: "admin" });
  const started = Date.now();
  const job = await runtime.services.jobs.start(ADMIN, { agent: "long/marathon", input: "go" });
  const outcome = await runtime.services.jobs.run(ADMIN, job.id);
  if (outcome.view.status !== "succeeded")
    throw new Error(
      `the ${STEPS}-step job ended ${outcome.view.status}: ${JSON.stringify(outcome.view.failure)}`,
    );
  const events = await runtime.services.jobs.events(ADMIN, job.id);
  console.log(`ran a ${STEPS}-step job (${events.length} events) in ${Date.now() - started} ms`);
  const server = await startServer({ runtime, host: "127.0.0.1", port: 0, worker: false });
  const browser = await chromium.launchPersistentContext(join(home, "profile"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(120_000);
    await page.goto(`${server.url}/t/${TENANT}/sign-in`);
    await page.getByLabel("User", { exact: true }).fill("ada");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    const times = [];
    let requests = [];
    let lastDrawn = { drawn: 0, folded: 0, missing: 0 };
    const streamed = [];
    for (let run = 0; run < RUNS; run++) {
      requests = [];
      const seen = (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/v1/")) requests.push(`${request.method()} ${url.pathname}`);
      };
      page.on("request", seen);
      await page.goto("about:blank");
      const from = performance.now();
      await page.goto(`${server.url}/t/${TENANT}/jobs/${job.id}`);
      await page.locator("[data-kind=job_succeeded]").waitFor();
      times.push(performance.now() - from);
      // When the events' stream had all of them (its end event closes it), from navigation.
      streamed.push(
        await page.evaluate(
          `performance.getEntriesByType("resource").find((entry) => entry.name.includes("/events"))?.responseEnd ?? NaN`,
        ),
      );
      page.off("request", seen);
      const drawn = await page.locator("[data-kind=tool_call]").count();
      const fold = page.locator("[data-kind=folded]");
      const folded = (await fold.count()) === 0 ? 0 : Number(await fold.getAttribute("data-tool-calls"));
      const missing = (await fold.count()) === 0 ? 0 : Number(await fold.getAttribute("data-missing"));
      lastDrawn = { drawn, folded, missing };
    }
    // Not timed: the rest is on the page when asked for, every call of the job.
    const unread = page.getByRole("button", { name: "Read the earlier events" });
    if ((await unread.count()) > 0) {
      await unread.click();
      await page.locator("[data-kind=folded][data-missing='0']").waitFor();
    }
    while ((await page.locator("[data-kind=folded]").count()) > 0) {
      const before = await page.locator("[data-kind=tool_call]").count();
      await page.getByRole("button", { name: /^Show .* earlier$/ }).click();
      await page.waitForFunction(`document.querySelectorAll("[data-kind=tool_call]").length > ${before}`);
    }
    const every = await page.locator("[data-kind=tool_call]").count();
    if (every !== STEPS) throw new Error(`the page drew ${every} tool calls of ${STEPS} once asked for all`);
    times.sort((a, b) => a - b);
    console.log(
      `job page of a ${STEPS}-step job opened (navigation → the answer drawn, with the newest rows and the fold): median ${times[Math.floor(RUNS / 2)].toFixed(0)} ms, slowest ${times.at(-1).toFixed(0)} ms over ${RUNS} runs`,
    );
    streamed.sort((a, b) => a - b);
    console.log(
      `of which the events' stream, until its end event: median ${streamed[Math.floor(RUNS / 2)].toFixed(0)} ms`,
    );
    console.log(
      `the page opened on the newest events: it drew ${lastDrawn.drawn} tool calls, folded ${lastDrawn.folded} and had not read ${lastDrawn.missing} older events (read and drawn on demand; once asked for, all ${every} tool calls were drawn)`,
    );
    console.log(`load average while it ran: ${loadavg()[0].toFixed(1)} (a loaded machine draws slower)`);
    console.log(`API requests while it opened: ${requests.length} (${[...new Set(requests)].join(", ")})`);
  } finally {
    await browser.close();
    await server.close();
    await runtime.close();
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
