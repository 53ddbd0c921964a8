// The console's journeys in a real browser (Debian's chromium, driven by playwright-core)
// against a real `oz0 serve`: sign in, start an agent from its page and watch its trace fill in
// live, approve a held call from the inbox, answer a question, stop a running job with a kill
// switch, edit a plugin's config without losing its secret, and see that a viewer and a member
// limited to one agent are offered only what they may. Nothing is loaded from off the machine.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Caller, packFolder, Runtime } from "@oz0/runtime";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleServer, serveConsole } from "./serve.js";

const FIXTURE = join(import.meta.dirname, "fixtures/console-lab");
const DESK_USER = join(import.meta.dirname, "fixtures/console-desk-user");
const CHANNELS = join(import.meta.dirname, "../../../plugins/channels");
const UPLOADED = join(import.meta.dirname, "fixtures/console-uploaded");
const GUARD = join(import.meta.dirname, "fixtures/console-guard");
const TENANT = "lab";
const PASSWORD = "a long enough password";
const TOKEN = "s3cret-token-123";
/** Set to a folder to have the journeys save screenshots of the main pages there (docs/console/). */
const SHOTS = process.env.OZ0_CONSOLE_SCREENSHOTS;
/** How long a step waits for what it expects: a hang detector on a loaded machine, not a budget. */
const PATIENCE = 60_000;

const ROOT: Caller = { tenant: "default", actor: "user:root", role: "admin", agents: ["*"] };
const LAB_ROOT: Caller = { tenant: TENANT, actor: "user:root", role: "admin", agents: ["*"] };

let home: string;
let gates: string;
let profile: string;
let server: ConsoleServer;
let browser: BrowserContext;
/** Where the webhook channel delivers: a loopback server that takes every POST. */
let surface: Server;
let page: Page;
/** Every request the browser made to somewhere other than the server. */
const offMachine: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-console-"));
  gates = join(home, "gates");
  profile = join(home, "chromium-profile");
  await mkdir(gates);
  surface = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200).end("{}"));
  });
  await new Promise<void>((resolve) => surface.listen(0, "127.0.0.1", resolve));
  const surfaceUrl = `http://127.0.0.1:${(surface.address() as AddressInfo).port}/hook`;
  const runtime = await Runtime.open({ home, defaultPlugins: [] });
  try {
    await runtime.identity.createTenant(ROOT, TENANT);
    await runtime.catalog.install(TENANT, FIXTURE);
    await runtime.services.plugins.install(LAB_ROOT, DESK_USER);
    for (const [user, role, agents] of [
      ["ada", "admin", ["*"]],
      ["vic", "viewer", ["*"]],
      ["sam", "runner", ["console-lab/greeter"]],
      ["opal", "operator", ["*"]],
    ] as const) {
      await runtime.identity.addUser(ROOT, user, PASSWORD);
      await runtime.identity.addMember(LAB_ROOT, { user, role, agents: [...agents] });
    }
    await runtime.services.policy.set(LAB_ROOT, "ask", "console-lab/desk.pay");
    await runtime.services.pluginConfig.set(LAB_ROOT, "console-lab", { token: TOKEN });
    // The webhook channel configured, with one message sent through it; Slack's left unconfigured.
    await runtime.catalog.install(TENANT, CHANNELS);
    await runtime.services.pluginConfig.set(LAB_ROOT, "channels", {
      webhook: { secret: "whsec-console-0123456789", url: surfaceUrl },
    });
    await runtime.channels.send(TENANT, {
      channel: "channels/webhook",
      channelId: "ops",
      text: "hello",
      by: "user:root",
    });
    await runtime.services.inventory.set(LAB_ROOT, "agent", "console-lab/greeter", {
      purpose: "Greets visitors at the front desk.",
      owner: "front office",
    });
    // Priced, so the usage chart has costs to draw: dollars per million tokens.
    await runtime.services.models.setPrice(LAB_ROOT, "test:*", { input: 1000, output: 2000 });
    const records = runtime.catalog.records;
    await records.put(
      TENANT,
      { plugin: "console-lab", kind: "contact", key: "c-1" },
      { name: "Ada" },
      "ada@example.com",
    );
    await records.put(
      TENANT,
      { plugin: "console-lab", kind: "contact", key: "c-1" },
      { name: "Ada Lovelace" },
      "ada@example.com",
    );
    await records.put(
      TENANT,
      { plugin: "console-lab", kind: "contact", key: "c-2" },
      { name: "Bob" },
      "bob@example.com",
    );
  } finally {
    await runtime.close();
  }
  server = await serveConsole(home, { OZ0_CONSOLE_GATES: gates });
  browser = await chromium.launchPersistentContext(profile, {
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
    viewport: { width: 1280, height: 900 },
  });
  await browser.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin === server.url) return route.continue();
    offMachine.push(url.href);
    return route.abort();
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(PATIENCE);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => surface?.close(resolve));
  await rm(home, { recursive: true, force: true });
});

async function shot(name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (SHOTS === undefined) return;
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? true });
}

async function signIn(user: string): Promise<void> {
  await page.goto(`${server.url}/t/${TENANT}/sign-in`);
  await page.getByLabel("User", { exact: true }).fill(user);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
}

async function signOut(): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in to oz0" }).waitFor();
}

/** Starts an agent from its page with a text input, and waits for its job's page. */
async function startFromPage(agent: string, input: string): Promise<string> {
  await page.goto(`${server.url}/t/${TENANT}/agents/${agent}`);
  await page.getByLabel("Input").fill(input);
  await page.getByRole("button", { name: "Start job" }).click();
  await page.waitForURL(/\/jobs\/[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1)!);
}

function timeline() {
  return page.getByRole("list", { name: "Job events" });
}

async function statusIs(status: string): Promise<void> {
  await page.locator(".fields .status", { hasText: status }).waitFor();
  // An ended job's status is drawn as soon as the job is read; its history may still be arriving.
  if (["succeeded", "failed", "cancelled", "dead"].includes(status))
    await page.locator('ol[aria-label="Job events"]:not([aria-busy="true"])').waitFor();
}

async function openGate(name: string): Promise<void> {
  await writeFile(join(gates, name), "open");
}

describe("the console's journeys", () => {
  it("signs a member in with a password to an HttpOnly, SameSite=Strict session, and shows an admin every section", async () => {
    await page.goto(`${server.url}/t/${TENANT}/agents`);
    // Not signed in: sent to sign in, and back to the page asked for afterwards.
    await page.getByRole("heading", { name: "Sign in to oz0" }).waitFor();
    await shot("sign-in");
    await page.getByLabel("User", { exact: true }).fill("ada");
    await page.getByLabel("Password", { exact: true }).fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "UNAUTHENTICATED" }).waitFor();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    const [cookie] = await browser.cookies(server.url);
    expect(cookie).toMatchObject({ name: "oz0_session", httpOnly: true, sameSite: "Strict" });
    const sections = page.getByRole("navigation", { name: "Sections" });
    for (const name of [
      "Agents",
      "Jobs",
      "Approvals",
      "Governance",
      "Plugins",
      "Channels",
      "Members",
      "Keys",
      "Audit",
    ]) {
      expect(await sections.getByRole("link", { name, exact: true }).count()).toBe(1);
    }
    await page.getByRole("link", { name: "console-lab/greeter" }).waitFor();
    await shot("agents");
  });

  it("starts an agent from its page with a form drawn from its input schema, and the trace fills in live", async () => {
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByText("desk.slow_echo").first().waitFor();
    await shot("agent");
    await page.getByLabel("Name").fill("Ada");
    await page.getByRole("button", { name: "Start job" }).click();
    await page.waitForURL(/\/jobs\/[^/]+$/);
    // The first call waits at its gate: the page shows it in flight, the job running, no answer.
    await timeline().getByText("running…").first().waitFor();
    await statusIs("running");
    expect(await page.getByText("Succeeded").count()).toBe(0);
    await openGate("greeter");
    // The rest arrives on the open page, with no reload: the second call, then the answer card.
    const answer = page.getByRole("region", { name: "Answer" });
    await answer.getByText("Hello, Ada!").waitFor();
    await statusIs("succeeded");
    expect(await answer.getByText("Greeting").count()).toBe(1);
    expect(await timeline().locator("[data-kind=tool_call]").count()).toBe(2);
    expect(await timeline().locator("[data-kind=model_call]").count()).toBe(3);
    await timeline().getByText("Context").first().waitFor();
    await shot("job");
  });

  it("opens a long job's page on its newest events, reads the older ones when asked, folds what it has, and counts every call", async () => {
    await startFromPage("console-lab/marathon", "count");
    await timeline().locator("[data-kind=job_succeeded]").waitFor();
    // Opened again once it ended: what the page opened while it ran came live, every event.
    await page.reload();
    await timeline().locator("[data-kind=job_succeeded]").waitFor();
    const fold = timeline().locator("[data-kind=folded]");
    await fold.waitFor();
    // Opened on its newest events: the oldest, its start among them, are not read yet.
    expect(Number(await fold.getAttribute("data-missing"))).toBeGreaterThan(0);
    expect(await fold.textContent()).toContain("earlier events not read yet");
    expect(await timeline().locator("[data-kind=job_started]").count()).toBe(0);
    await fold.scrollIntoViewIfNeeded();
    await shot("job-long", { fullPage: false });
    await fold.getByRole("button", { name: "Read the earlier events" }).click();
    await timeline().locator("[data-kind=folded][data-missing='0']").waitFor();
    await timeline().locator("[data-kind=job_started]").waitFor();
    const drawn = await timeline().locator("[data-kind=tool_call]").count();
    expect(drawn).toBeLessThan(120);
    expect(drawn + Number(await fold.getAttribute("data-tool-calls"))).toBe(120);
    expect(await fold.textContent()).toMatch(/earlier events folded.*steps 1–\d+/);
    await fold.getByRole("button", { name: "Show all earlier" }).click();
    await fold.waitFor({ state: "detached" });
    expect(await timeline().locator("[data-kind=tool_call]").count()).toBe(120);
  });

  it("approves a held call from the inbox, and the job goes on", async () => {
    const job = await startFromPage("console-lab/payer", "pay INV-7");
    await timeline().getByText("Held for approval").first().waitFor();
    await page.goto(`${server.url}/t/${TENANT}/approvals`);
    const held = page.getByRole("listitem").filter({ hasText: job });
    await held.getByText('"amount": 42').waitFor();
    await held.getByText("console-lab/desk.pay").first().waitFor();
    await shot("approvals");
    await held.getByLabel("Reason").fill("invoice checked");
    await held.getByRole("button", { name: "Approve" }).click();
    await page.getByText("No call waits for a decision.").waitFor();
    await page.goto(`${server.url}/t/${TENANT}/jobs/${job}`);
    await statusIs("succeeded");
    await timeline().getByText("Call approved").first().waitFor();
    await timeline().getByText("invoice checked", { exact: false }).first().waitFor();
  });

  it("approves a held call in place on its job's page, with a reason, and the job goes on", async () => {
    await startFromPage("console-lab/payer", "pay INV-10");
    const held = timeline().locator("[data-kind=approval_requested]");
    await held.getByText("Held for approval").waitFor();
    await held.getByText('"amount": 42').waitFor();
    await held.getByLabel("Reason").fill("approved on the spot");
    await held.getByRole("button", { name: "Approve" }).click();
    await statusIs("succeeded");
    await timeline().getByText("by user:ada: approved on the spot").waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
  });

  it("answers a job's question in place, and the job goes on", async () => {
    await startFromPage("console-lab/asker", "ticket 7");
    await timeline().getByText("Which queue?", { exact: true }).first().waitFor();
    await statusIs("waiting");
    await page.getByLabel("Your answer").fill("billing");
    await page.getByRole("button", { name: "Answer" }).click();
    await statusIs("succeeded");
    await timeline().getByText("Answered").first().waitFor();
    expect(await page.getByLabel("Your answer").count()).toBe(0);
  });

  it("says on a job's page when no live node serves its queue, naming the node to start", async () => {
    await startFromPage("console-lab/cruncher", "numbers");
    const note = page.getByRole("status").filter({ hasText: "Not served" });
    await note.getByText("no live node serves queue pool.console-lab.gpu", { exact: false }).waitFor();
    expect(await note.textContent()).toContain("start one with oz0 node --labels gpu");
    await page.getByRole("button", { name: "Cancel job" }).click();
    await statusIs("cancelled");
  });

  it("stops a running job with the agent's kill switch", async () => {
    const job = await startFromPage("console-lab/looper", "work the list");
    // Its second call waits at its gate: the job is running when the switch is pulled.
    await timeline().getByText("running…").first().waitFor();
    await statusIs("running");
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    await page.getByLabel("Kind").selectOption("agent");
    await page.getByLabel("Address").fill("console-lab/looper");
    await page.getByRole("button", { name: "Stop it" }).click();
    await page.getByRole("button", { name: "Revive agent console-lab/looper" }).waitFor();
    await shot("governance");
    await openGate("looper");
    await page.goto(`${server.url}/t/${TENANT}/jobs/${job}`);
    await statusIs("failed");
    await page.getByText("killed", { exact: false }).first().waitFor();
    // Its third call never ran.
    expect(await timeline().locator("[data-kind=tool_call]").count()).toBe(2);
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/looper`);
    await page.getByText("Stopped").waitFor();
    await page.getByRole("button", { name: "Revive agent console-lab/looper" }).click();
    await page.getByRole("button", { name: "Stop agent console-lab/looper" }).waitFor();
  });

  it("edits a plugin's config in the form drawn from its admin spec, keeping the secret it shows masked", async () => {
    // The plugin's own panel is held back until the form is filled in: the page drawn again
    // when it comes keeps what was typed.
    const detail = `${server.url}/v1/t/${TENANT}/plugins/console-lab`;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(detail, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/t/${TENANT}/plugins/console-lab`);
    const endpoint = page.getByLabel("Endpoint");
    await endpoint.waitFor();
    expect(await endpoint.inputValue()).toBe("https://desk.example");
    expect(await page.getByLabel("Token").inputValue()).toBe("[hidden]");
    await endpoint.fill("https://desk.internal");
    await page.getByLabel("Retries").fill("4");
    release();
    await page.getByRole("region", { name: "Grants" }).waitFor();
    await page.unroute(detail);
    expect(await endpoint.inputValue()).toBe("https://desk.internal");
    expect(await page.getByLabel("Retries").inputValue()).toBe("4");
    await page.getByRole("button", { name: "Save config" }).click();
    await page.getByText("Saved.").waitFor();
    await shot("plugin");
    await page.reload();
    await page.getByLabel("Endpoint").waitFor();
    expect(await page.getByLabel("Endpoint").inputValue()).toBe("https://desk.internal");
    expect(await page.getByLabel("Retries").inputValue()).toBe("4");
    expect(await page.getByLabel("Token").inputValue()).toBe("[hidden]");
    // The status spec's status() is asked afresh, with the config as it is now.
    await page.getByText("desk at https://desk.internal").waitFor();
    // The mask sent back kept the secret: the plugin's own code still reads the real token.
    await startFromPage("console-lab/inspector", "check");
    await statusIs("succeeded");
    await timeline().getByText("Result").click();
    await timeline().getByText('"token_intact": true').first().waitFor();
    await timeline().getByText('"endpoint": "https://desk.internal"').first().waitFor();
  });

  it("charts usage per agent, model and day on the governance page, in the page itself, with the budgets", async () => {
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    const usage = page.getByRole("region", { name: "Usage" });
    const chart = usage.getByRole("img", { name: "Cost per agent over the last 30 days" });
    await chart.waitFor();
    // The jobs run so far each count, by agent; the chart's bars are the table's rows.
    const table = usage.getByRole("table", { name: "Usage per agent" });
    await table.getByRole("cell", { name: "console-lab/greeter", exact: true }).waitFor();
    expect(await chart.locator("[data-key='console-lab/greeter'] rect").count()).toBe(1);
    const rows = await table.locator("tbody tr").count();
    expect(await chart.locator("rect").count()).toBe(rows);
    expect(await table.locator("tfoot").textContent()).toMatch(/Total\$\d+\.\d{2}/);
    await usage.getByLabel("Per", { exact: true }).selectOption("model");
    await usage
      .getByRole("table", { name: "Usage per model" })
      .getByRole("cell", { name: "test:scripts/greeter.yaml" })
      .waitFor();
    await usage.getByLabel("Per", { exact: true }).selectOption("day");
    const today = new Date().toISOString().slice(0, 10);
    await usage.getByRole("table", { name: "Usage per day" }).getByRole("cell", { name: today }).waitFor();
    await usage.getByLabel("Chart", { exact: true }).selectOption("tokens");
    await usage.getByRole("img", { name: "Tokens per day over the last 30 days" }).waitFor();
    await usage.getByLabel("Per", { exact: true }).selectOption("agent");
    await usage.getByLabel("Chart", { exact: true }).selectOption("cost");
    await page
      .getByRole("region", { name: "Budgets" })
      .getByText("No budgets: the governance plugin is not installed", { exact: false })
      .waitFor();
    await shot("governance-usage");
  });

  it("streams a chat's turns from the chat routes' event stream, and each turn goes to the chat's one job", async () => {
    await page.goto(`${server.url}/t/${TENANT}/chat/console-lab/chatter`);
    const turns = page.getByRole("list", { name: "Turns" });
    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/v1/t/${TENANT}/chats`) && response.request().method() === "POST",
    );
    await page.getByLabel("Message").fill("hi");
    await page.getByRole("button", { name: "Send" }).click();
    const response = await answered;
    expect(response.headers()["content-type"]).toContain("text/event-stream");
    await turns.getByText("Hello there, how can I help?").waitFor();
    await page.getByRole("link", { name: "Its job" }).waitFor();
    const job = (await page.getByRole("link", { name: "Its job" }).getAttribute("href"))!;
    await page.getByLabel("Message").fill("thanks");
    await page.getByRole("button", { name: "Send" }).click();
    await turns.getByText("Glad to help again, goodbye.").waitFor();
    expect(await turns.getByRole("listitem").count()).toBe(4);
    expect(await page.getByRole("link", { name: "Its job" }).getAttribute("href")).toBe(job);
    await shot("chat");
    await page.getByRole("button", { name: "End chat" }).click();
    await page.goto(`${server.url}${job}`);
    await timeline().locator("[data-kind=job_succeeded]").waitFor();
    expect(await timeline().locator("[data-kind=model_call]").count()).toBe(2);
  });

  it("shows a plugin's grants, revokes and grants them again as an admin, and leaves its live status to the server", async () => {
    await page.goto(`${server.url}/t/${TENANT}/plugins/console-lab`);
    await page
      .getByRole("region", { name: "Grants" })
      .getByText("Its uses: asks nothing of other plugins.")
      .waitFor();
    expect(await page.getByRole("region", { name: "Grants" }).getByRole("button").count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/plugins/console-desk-user`);
    const grants = page.getByRole("region", { name: "Grants" });
    await grants.getByText("console-lab/desk.slow_echo").first().waitFor();
    await grants.getByText("Granted for version 1.0.0 by user:root", { exact: false }).waitFor();
    await grants.getByText("Its grant covers all its uses: asks.").waitFor();
    await shot("plugin-grants");
    await grants.getByRole("button", { name: "Revoke its grant" }).click();
    await grants.getByText("Not granted:").waitFor();
    await grants.getByText("Refused at run time until granted:", { exact: false }).waitFor();
    await grants.getByRole("button", { name: "Grant what its uses: asks" }).click();
    await grants.getByText("Granted for version 1.0.0 by user:ada", { exact: false }).waitFor();
    await page
      .getByRole("region", { name: "Status" })
      .getByText("This plugin reports no status and runs no runtime.")
      .waitFor();
  });

  it("lists records with their versions, places a hold that refuses erasure, and erases a subject as an admin", async () => {
    await page.goto(`${server.url}/t/${TENANT}/records`);
    const records = page.getByRole("table", { name: "Records, newest first" });
    await records.getByText("console-lab/contact/c-1").waitFor();
    expect(await records.locator("tbody tr").count()).toBe(2);
    await page.getByRole("button", { name: "Versions of c-1" }).click();
    const versions = page.getByRole("list", { name: "Versions of c-1" });
    await versions.getByText('"name": "Ada Lovelace"').waitFor();
    expect(await versions.getByRole("listitem").count()).toBe(2);
    await page.getByLabel("Subject", { exact: true }).first().fill("bob@example.com");
    await page.getByRole("button", { name: "Filter" }).click();
    await records.getByText("console-lab/contact/c-1").waitFor({ state: "detached" });
    expect(await records.locator("tbody tr").count()).toBe(1);
    // A hold on the subject: erasing it is refused while the hold stands.
    const holds = page.getByRole("region", { name: "Legal holds" });
    await holds.getByLabel("Subject").fill("ada@example.com");
    await holds.getByLabel("Reason").fill("litigation 42");
    await holds.getByRole("button", { name: "Place hold" }).click();
    await holds.getByRole("cell", { name: "litigation 42" }).waitFor();
    await shot("records");
    page.once("dialog", (dialog) => void dialog.accept());
    const erase = page.getByRole("region", { name: "Erase a subject" });
    await erase.getByLabel("Subject to erase").fill("ada@example.com");
    await erase.getByRole("button", { name: "Erase" }).click();
    await erase.getByRole("alert").waitFor();
    expect(await erase.getByRole("alert").textContent()).toContain("hold");
    await holds.getByRole("button", { name: "Release the hold on subject ada@example.com" }).click();
    await holds.getByText("No hold is in force.").waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await erase.getByRole("button", { name: "Erase" }).click();
    await erase
      .getByRole("status")
      .getByText("Erased ada@example.com: 1 records (2 versions)", { exact: false })
      .waitFor();
    await page.getByLabel("Subject", { exact: true }).first().fill("ada@example.com");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByRole("region", { name: "Records" }).getByText("No records match.").waitFor();
  });

  it("lists the tenant's channels, which is configured, and their outbox counts", async () => {
    await page.goto(`${server.url}/t/${TENANT}/channels`);
    await page.getByRole("heading", { name: "Channels", level: 1 }).waitFor();
    const table = page.getByRole("table", { name: "Channels and their outbox" });
    const webhook = table.getByRole("row").filter({ hasText: "channels/webhook" });
    const slack = table.getByRole("row").filter({ hasText: "channels/slack" });
    await webhook.waitFor();
    const cells = async (row: typeof webhook) => (await row.getByRole("cell").allTextContents()).slice(1);
    // The server's drain delivers the message sent at set-up; the page is read again until it has.
    while ((await cells(webhook))[6] !== "1") {
      await page.reload();
      await webhook.waitFor();
    }
    expect(await cells(webhook)).toEqual(["yes", "yes", "off", "0", "0", "0", "1", "0"]);
    expect(await cells(slack)).toEqual(["yes", "no", "off", "0", "0", "0", "0", "0"]);
    await shot("channels");
  });

  it("an operator may keep records and place holds but is offered no erasure", async () => {
    await signOut();
    await signIn("opal");
    await page.goto(`${server.url}/t/${TENANT}/records`);
    await page.getByRole("table", { name: "Records, newest first" }).waitFor();
    await page.getByRole("button", { name: "Place hold" }).waitFor();
    expect(await page.getByRole("region", { name: "Erase a subject" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Erase" }).count()).toBe(0);
    await signOut();
    await signIn("ada");
  });

  it("lets an admin see the members, make a key shown once and revoke it, and read both in the audit log", async () => {
    await page.goto(`${server.url}/t/${TENANT}/members`);
    const members = page.getByRole("region", { name: "Members" });
    for (const user of ["ada", "vic", "sam", "opal"])
      await members.getByRole("cell", { name: user, exact: true }).waitFor();
    await page.goto(`${server.url}/t/${TENANT}/keys`);
    await page.getByLabel("Name").fill("ci-runner");
    await page.getByLabel("Role").selectOption("runner");
    await page.getByRole("button", { name: "Create key" }).click();
    const made = page.getByRole("status").filter({ hasText: "shown this once" });
    expect(await made.locator("code").textContent()).toMatch(/^oz0k_/);
    await page.getByRole("button", { name: "Revoke key ci-runner" }).click();
    await page.getByRole("button", { name: "Revoke key ci-runner" }).waitFor({ state: "detached" });
    await page.getByRole("cell", { name: "revoked" }).waitFor();
    await page.goto(`${server.url}/t/${TENANT}/audit`);
    const entries = page.getByRole("region", { name: "Entries" });
    await entries.getByRole("cell", { name: "key.create" }).first().waitFor();
    await entries.getByRole("cell", { name: "key.revoke" }).first().waitFor();
  });

  it("draws a list answer as a table card and an x-oz0-diff answer as its before and after", async () => {
    await startFromPage("console-lab/ledger", "the open ones");
    const answer = page.getByRole("region", { name: "Answer" });
    const table = answer.getByRole("table");
    await table.getByRole("cell", { name: "INV-2", exact: true }).waitFor();
    expect(await table.locator("caption").textContent()).toBe("Open invoices");
    expect(await table.getByRole("columnheader").allTextContents()).toEqual(["Invoice", "Amount"]);
    expect(await table.locator("tbody tr").nth(1).locator("td").allTextContents()).toEqual(["INV-2", "42"]);
    // The object's other properties are the card's fields, beside its table.
    expect(await answer.locator("dl.fields").textContent()).toBe("Total due54");
    await startFromPage("console-lab/editor", "tidy the letter");
    const diff = page
      .getByRole("region", { name: "Answer" })
      .getByRole("figure", { name: "diff of Draft and Tidied" });
    await diff.waitFor();
    expect(await diff.locator(".diff-removed").allTextContents()).toEqual(["- Dear sir\n"]);
    expect(await diff.locator(".diff-added").allTextContents()).toEqual(["+ Dear Ada\n"]);
    expect(await diff.locator(".diff-same").allTextContents()).toEqual(["  please pay\n", "  thanks\n"]);
    expect(await page.getByRole("region", { name: "Answer" }).locator("dl.fields").textContent()).toBe(
      "Edits1",
    );
  });

  it("links a job's child job from its timeline, and draws each step with its duration, tokens and cost", async () => {
    await startFromPage("console-lab/boss", "list the invoices");
    await statusIs("succeeded");
    const child = timeline().locator("[data-kind=child_job_started]").getByRole("link");
    await child.waitFor();
    const step = timeline().locator("[data-kind=model_call]").first();
    // Priced at $1,000 and $2,000 per million tokens, so every step costs something.
    expect(await step.textContent()).toMatch(
      /Step 1.*test:scripts\/boss\.yaml · \d+\.\d ms · \d+\+\d+ tokens · \$\d+\.\d{4}/,
    );
    await timeline()
      .locator("[data-kind=child_job_finished]")
      .getByText("succeeded", { exact: false })
      .waitFor();
    await child.click();
    await page
      .getByRole("region", { name: "Answer" })
      .getByRole("cell", { name: "INV-1", exact: true })
      .waitFor();
    await page.getByText("console-lab/ledger").first().waitFor();
  });

  it("filters the jobs by agent, status and time started, the filters kept in the page's address and sent to the API", async () => {
    // The ledger ran once from its page and once as the boss's child job: the child is made two
    // hours old, so the last hour holds only the other, and the last day both.
    const runtime = await Runtime.open({ home, defaultPlugins: [] });
    try {
      const [child] = (await runtime.services.jobs.search(LAB_ROOT, { agent: "console-lab/ledger" })).filter(
        (job) => job.parent !== null,
      );
      await runtime.store.db
        .updateTable("jobs")
        .set({ created_at: Date.now() - 2 * 3_600_000 })
        .where("id", "=", child!.id)
        .execute();
    } finally {
      await runtime.close();
    }
    await page.goto(`${server.url}/t/${TENANT}/jobs`);
    const jobs = page.getByRole("region", { name: "Jobs" });
    await jobs.getByRole("cell", { name: "console-lab/greeter" }).first().waitFor();
    const form = page.getByRole("form", { name: "Filter jobs" });
    await form.getByLabel("Agent").fill("console-lab/ledger");
    await form.getByLabel("Status").selectOption("succeeded");
    await form.getByLabel("Started").selectOption("1h");
    // The period goes to the API as since, by the browser's clock: the store filters, not the page.
    const asked = page.waitForRequest((request) => /\/jobs\?.*since=\d+/.test(request.url()));
    const before = Date.now();
    await form.getByRole("button", { name: "Filter" }).click();
    const since = Number(new URL((await asked).url()).searchParams.get("since"));
    expect(since).toBeGreaterThanOrEqual(before - 3_600_000 - 1_000);
    expect(since).toBeLessThanOrEqual(Date.now() - 3_600_000);
    await page.waitForURL(/\?agent=console-lab%2Fledger&status=succeeded&since=1h$/);
    // The unfiltered list stays drawn until the filtered one comes: the greeter's jobs leave it.
    await jobs.getByRole("cell", { name: "console-lab/greeter" }).first().waitFor({ state: "detached" });
    expect(await jobs.locator("tbody tr td:nth-child(2)").allTextContents()).toEqual(["console-lab/ledger"]);
    await form.getByLabel("Started").selectOption("24h");
    await form.getByRole("button", { name: "Filter" }).click();
    await jobs.locator("tbody tr").nth(1).waitFor();
    expect(await jobs.locator("tbody tr td:nth-child(2)").allTextContents()).toEqual([
      "console-lab/ledger",
      "console-lab/ledger",
    ]);
    // Reloaded, the address alone draws the same list.
    await page.reload();
    await jobs.locator("tbody tr").nth(1).waitFor();
    expect(await form.getByLabel("Agent").inputValue()).toBe("console-lab/ledger");
    expect(await form.getByLabel("Started").inputValue()).toBe("24h");
    await form.getByLabel("Status").selectOption("failed");
    await form.getByRole("button", { name: "Filter" }).click();
    await jobs.getByText("No jobs match.").waitFor();
    // A period the list does not offer is said to be one, not taken as any time in silence.
    await page.goto(`${server.url}/t/${TENANT}/jobs?since=2h`);
    await page
      .getByRole("alert")
      .filter({ hasText: "since=2h is not a period this list offers (1h, 24h, 7d)" })
      .waitFor();
  });

  it("denies a held call with a reason, and the inbox keeps each decided call with who decided it, when and why", async () => {
    const job = await startFromPage("console-lab/payer", "pay INV-9");
    await timeline().getByText("Held for approval").first().waitFor();
    await page.goto(`${server.url}/t/${TENANT}/approvals`);
    const held = page.getByRole("listitem").filter({ hasText: job });
    await held.getByLabel("Reason").fill("not our invoice");
    await held.getByRole("button", { name: "Deny" }).click();
    await held.waitFor({ state: "detached" });
    await page.getByLabel("All", { exact: true }).check();
    await page.getByRole("heading", { name: "Every approval" }).waitFor();
    const denied = page.getByRole("listitem").filter({ hasText: job });
    await denied.getByText("denied by user:ada", { exact: false }).waitFor();
    expect(await denied.textContent()).toContain(": not our invoice");
    // When it was asked, and when it was decided.
    expect(await denied.locator("time").count()).toBe(2);
    const approved = page.getByRole("listitem").filter({ hasText: "invoice checked" });
    await approved.getByText("approved by user:ada", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/jobs/${job}`);
    await timeline().getByText("Call denied").first().waitFor();
    await timeline().getByText("by user:ada: not our invoice").first().waitFor();
  });

  it("sets a tool policy rule, shows which calls a pattern decides, and removes it; an agent's page names the rule deciding each call", async () => {
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/payer`);
    const itsCalls = page.getByRole("region", { name: "Policy on its calls" });
    await itsCalls.getByRole("cell", { name: "ask", exact: true }).waitFor();
    expect(await itsCalls.locator("tbody tr td").allTextContents()).toEqual([
      "console-lab/desk.pay",
      "console-lab/desk.pay",
      "ask",
    ]);
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    const decides = page.getByRole("region", { name: "What the rules decide" });
    await decides.getByLabel("Which functions does a pattern cover?").fill("console-lab/desk.*");
    const rowOf = (fn: string) => decides.locator("tbody tr").filter({ hasText: fn });
    await rowOf("console-lab/desk.slow_echo").waitFor();
    expect(await decides.locator("tbody tr").count()).toBe(3);
    expect(await rowOf("console-lab/desk.slow_echo").locator("td").allTextContents()).toEqual([
      "console-lab/desk.slow_echo",
      "the agent's grant",
      "allow (when granted)",
    ]);
    // The recorded calls a deny on the desk would decide: the echoes, stopped by it, and the
    // payer's payments, which their exact ask rule goes on deciding.
    const recorded = page.getByRole("region", { name: "Recorded calls a pattern decides" });
    await recorded.getByLabel("Pattern to preview").fill("console-lab/desk.*");
    await recorded.getByLabel("As a rule that says").selectOption("deny");
    await recorded.getByRole("button", { name: "Show the calls" }).click();
    const calls = recorded.getByRole("table", { name: "Recorded calls console-lab/desk.* covers" });
    const echo = calls.locator("tbody tr").filter({ hasText: "console-lab/desk.slow_echo" }).first();
    await echo.waitFor();
    const [, agent, fn, args, job, now, withRule] = await echo.locator("td").allTextContents();
    expect({ fn, now, withRule }).toEqual({
      fn: "console-lab/desk.slow_echo",
      now: "allow (the agent's grant)",
      withRule: "deny by console-lab/desk.*",
    });
    expect(args).toMatch(/^\{"text":".*"\}$/);
    await shot("governance-calls");
    expect(job?.startsWith(`${agent?.split("/")[1]}-`)).toBe(true);
    const paid = calls.locator("tbody tr").filter({ hasText: "console-lab/desk.pay" }).first();
    expect((await paid.locator("td").allTextContents()).slice(5)).toEqual([
      "ask by console-lab/desk.pay",
      "ask by console-lab/desk.pay",
    ]);
    // Each call links its job.
    const jobOf = (await echo.locator("td").nth(4).textContent()) ?? "";
    await echo.getByRole("link", { name: jobOf }).click();
    await page.getByRole("heading", { name: `Job ${jobOf}` }).waitFor();
    await page.goBack();
    const policy = page.getByRole("region", { name: "Tool policy" });
    await policy.getByLabel("Pattern").fill("console-lab/desk.*");
    await policy.getByLabel("Action").selectOption("deny");
    await policy.getByRole("button", { name: "Set rule" }).click();
    await policy.getByRole("cell", { name: "console-lab/desk.*", exact: true }).waitFor();
    // The tool's wildcard now decides every function of it but the one its exact rule names.
    await rowOf("console-lab/desk.slow_echo").getByRole("cell", { name: "deny", exact: true }).waitFor();
    expect(await rowOf("console-lab/desk.pay").locator("td").allTextContents()).toEqual([
      "console-lab/desk.pay",
      "console-lab/desk.pay",
      "ask",
    ]);
    await decides.getByLabel("Which functions does a pattern cover?").fill("console-lab/nothing.*");
    await decides.getByText("console-lab/nothing.* covers no function of this tenant.").waitFor();
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page
      .getByRole("region", { name: "Policy on its calls" })
      .getByRole("cell", { name: "console-lab/desk.*", exact: true })
      .waitFor();
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    await page.getByRole("button", { name: "Remove the rule on console-lab/desk.*" }).click();
    await policy
      .getByRole("cell", { name: "console-lab/desk.*", exact: true })
      .waitFor({ state: "detached" });
    expect(await policy.locator("tbody tr").count()).toBe(1);
  });

  it("signs in with an API key, which carries its own role and agents", async () => {
    await page.goto(`${server.url}/t/${TENANT}/keys`);
    await page.getByLabel("Name").fill("front-desk");
    await page.getByLabel("Role").selectOption("runner");
    await page.getByLabel("Agents").fill("console-lab/greeter");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page
      .getByRole("status")
      .filter({ hasText: "shown this once" })
      .locator("code")
      .textContent())!;
    await signOut();
    await page.getByLabel("With an API key", { exact: true }).check();
    await page.getByLabel("API key", { exact: true }).fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    await page.getByRole("link", { name: "console-lab/greeter" }).waitFor();
    expect(await page.getByRole("link", { name: "console-lab/payer" }).count()).toBe(0);
    const sections = page.getByRole("navigation", { name: "Sections" });
    expect(await sections.getByRole("link", { name: "Keys" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByRole("button", { name: "Start job" }).waitFor();
    await signOut();
    await signIn("ada");
  });

  it("installs a plugin an admin uploads as a packed bundle, and lists each plugin with its version and bundle digest", async () => {
    const packed = await packFolder(UPLOADED);
    const bundle = join(home, "console-uploaded.tgz");
    await writeFile(bundle, packed.archive);
    await page.goto(`${server.url}/t/${TENANT}/plugins`);
    const installed = page.getByRole("region", { name: "Installed" });
    await installed.getByRole("link", { name: "console-lab", exact: true }).waitFor();
    expect(await installed.getByRole("link", { name: "console-uploaded", exact: true }).count()).toBe(0);
    const upload = page.getByRole("region", { name: "Install by upload" });
    await upload.getByLabel("Bundle (.tgz from oz0 plugin pack)").setInputFiles(bundle);
    await upload.getByRole("button", { name: "Install" }).click();
    await upload.getByRole("status").getByText("installed console-uploaded", { exact: true }).waitFor();
    const row = installed
      .locator("tbody tr")
      .filter({ has: page.getByRole("link", { name: "console-uploaded", exact: true }) });
    await row.waitFor();
    expect((await row.locator("td").allTextContents()).slice(1, 3)).toEqual([
      "2.1.0",
      packed.digest.slice(0, 12),
    ]);
    expect(await row.locator("code").getAttribute("title")).toBe(packed.digest);
    await row.getByRole("link", { name: "console-uploaded", exact: true }).click();
    const plugin = page.getByRole("region", { name: "Plugin" });
    await plugin.getByText(packed.digest, { exact: true }).waitFor();
    await page.getByText("console-uploaded/notes").first().waitFor();
  });

  it("asks the API once per panel: the job page reads who is signed in, the job and its event stream, no more", async () => {
    const job = await startFromPage("console-lab/ledger", "once more");
    await page.getByRole("region", { name: "Answer" }).getByRole("table").waitFor();
    const asked: string[] = [];
    const record = (request: { url(): string; method(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/v1/")) asked.push(`${request.method()} ${url.pathname}`);
    };
    page.on("request", record);
    try {
      await page.reload();
      await page.getByRole("region", { name: "Answer" }).getByRole("table").waitFor();
      await timeline().locator("[data-kind=job_succeeded]").waitFor();
      const base = `/v1/t/${TENANT}/jobs/${job}`;
      expect(asked.sort()).toEqual([`GET /v1/t/${TENANT}/me`, `GET ${base}`, `GET ${base}/events`].sort());
      asked.length = 0;
      await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
      await page.getByRole("region", { name: "Recent jobs" }).getByRole("link").first().waitFor();
      await page.getByRole("region", { name: "Policy on its calls" }).getByRole("table").waitFor();
      await page.getByText("Running: not stopped.").waitFor();
      // Agent and start form share the agent's one read; the policy, the switch and the jobs one each.
      expect(asked.sort()).toEqual(
        [
          `GET /v1/t/${TENANT}/me`,
          `GET /v1/t/${TENANT}/agents/console-lab/greeter`,
          `GET /v1/t/${TENANT}/policy`,
          `GET /v1/t/${TENANT}/kill-switches`,
          `GET /v1/t/${TENANT}/jobs`,
        ].sort(),
      );
    } finally {
      page.off("request", record);
    }
  });

  it("marks each page's landmarks, labels every control, names every button and link, and skips to the content from the keyboard", async () => {
    for (const path of [
      "agents/console-lab/greeter",
      "flows/console-lab/invoice-flow",
      "jobs",
      "approvals",
      "governance",
      "plugins/console-lab",
    ]) {
      await page.goto(`${server.url}/t/${TENANT}/${path}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.getByText("Loading…").first().waitFor({ state: "detached" });
      expect(await page.getByRole("banner").count()).toBe(1);
      expect(await page.getByRole("main").count()).toBe(1);
      expect(await page.getByRole("navigation", { name: "Sections" }).count()).toBe(1);
      // Strings, run in the page: this file is typed for Node, not the DOM.
      const unlabelled = await page.evaluate<string[]>(
        `[...document.querySelectorAll("input, select, textarea")]
          .filter((control) => control.type !== "hidden" && control.labels.length === 0 && !control.getAttribute("aria-label"))
          .map((control) => control.outerHTML)`,
      );
      expect(unlabelled, path).toEqual([]);
      const unnamed = await page.evaluate<string[]>(
        `[...document.querySelectorAll("button, a[href]")]
          .filter((element) => element.textContent.trim() === "" && !element.getAttribute("aria-label"))
          .map((element) => element.outerHTML)`,
      );
      expect(unnamed, path).toEqual([]);
      const unnamedPanels = await page.evaluate<number>(
        `[...document.querySelectorAll("section")].filter((section) => !section.getAttribute("aria-labelledby") && !section.getAttribute("aria-label")).length`,
      );
      expect(unnamedPanels, path).toBe(0);
    }
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByRole("button", { name: "Start job" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement.textContent")).toBe("Skip to content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<boolean>("document.activeElement.closest('main') !== null")).toBe(true);
    // The control with the keyboard's focus is drawn with a ring.
    expect(await page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle")).not.toBe(
      "none",
    );
  });

  it("shows an agent by address with what it is and uses and what the inventory says it is for, and the inventory on the governance page", async () => {
    await page.goto(`${server.url}/t/${TENANT}/agents`);
    const card = page
      .getByRole("region", { name: "Agents" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: "console-lab/greeter", exact: true }) });
    await card.getByText("Purpose: Greets visitors at the front desk.").waitFor();
    expect(await card.locator(".tag").allTextContents()).toEqual(["front"]);
    await card.getByRole("link", { name: "console-lab/greeter", exact: true }).click();
    const agent = page.getByRole("region", { name: "Agent", exact: true });
    await agent.getByText("Greets visitors at the front desk.").waitFor();
    expect(await agent.locator("dt").allTextContents()).toEqual([
      "Description",
      "Runtime",
      "Model",
      "Tools",
      "Skills",
      "Tags",
      "Purpose",
    ]);
    expect(await agent.locator("dd").allTextContents()).toEqual([
      "Greets a person by name and answers with the greeting.",
      "oz0",
      "test · script scripts/greeter.yaml",
      "console-lab/desk.slow_echo",
      "none",
      "front",
      "Greets visitors at the front desk.",
    ]);
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    const inventory = page.getByRole("region", { name: "Inventory" });
    await inventory.getByRole("cell", { name: "front office" }).waitFor();
    expect(await inventory.locator("tbody tr td").allTextContents()).toEqual([
      "agent console-lab/greeter",
      "Greets visitors at the front desk.",
      "front office",
    ]);
  });

  it("stops a tool from its page: a running job's next call of it is refused, and the model told", async () => {
    const job = await startFromPage("console-lab/sweeper", "sweep");
    await timeline().getByText("running…").first().waitFor();
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/sweeper`);
    await page.getByRole("link", { name: "console-lab/desk.slow_echo" }).click();
    await page.getByRole("heading", { name: "console-lab/desk", level: 1 }).waitFor();
    const tool = page.getByRole("region", { name: "Tool", exact: true });
    await tool.getByText("A help desk that echoes, pays, and checks its config.").waitFor();
    await tool.getByRole("link", { name: "console-lab", exact: true }).waitFor();
    await page.getByRole("button", { name: "Stop tool console-lab/desk" }).click();
    await page.getByRole("button", { name: "Revive tool console-lab/desk" }).waitFor();
    try {
      await openGate("sweeper");
      await page.goto(`${server.url}/t/${TENANT}/jobs/${job}`);
      await statusIs("succeeded");
      // The status can be drawn before the timeline's last events arrive: wait for the refused
      // call itself, then count.
      const calls = timeline().locator("[data-kind=tool_call]");
      await calls.nth(1).getByText("KILLED", { exact: false }).first().waitFor();
      await calls.nth(1).getByText("failed", { exact: false }).first().waitFor();
      expect(await calls.count()).toBe(2);
    } finally {
      // Revived whatever happened above: every later journey calls the desk.
      await page.goto(`${server.url}/t/${TENANT}/tools/console-lab/desk`);
      await page.getByRole("button", { name: "Revive tool console-lab/desk" }).click();
      await page.getByRole("button", { name: "Stop tool console-lab/desk" }).waitFor();
    }
  });

  it("lists a flow, and starts it from its page with a text box, its job's answer drawn as its card", async () => {
    await page.goto(`${server.url}/t/${TENANT}/agents`);
    await page
      .getByRole("region", { name: "Flows" })
      .getByRole("link", { name: "console-lab/echo-flow", exact: true })
      .click();
    await page.getByRole("heading", { name: "console-lab/echo-flow", level: 1 }).waitFor();
    const flow = page.getByRole("region", { name: "Flow", exact: true });
    await flow.getByText("Echoes its input through the desk, a step.").waitFor();
    await flow.getByRole("link", { name: "console-lab", exact: true }).waitFor();
    await page.getByLabel("Input").fill("through the flow");
    await page.getByRole("button", { name: "Start job" }).click();
    await page.waitForURL(/\/jobs\/[^/]+$/);
    await statusIs("succeeded");
    await page.getByRole("region", { name: "Answer" }).getByText("through the flow").waitFor();
  });

  it("starts a flow from a form drawn from its input schema, StartJob's refusals drawn at their fields", async () => {
    await page.goto(`${server.url}/t/${TENANT}/flows/console-lab/invoice-flow`);
    const flow = page.getByRole("region", { name: "Flow", exact: true });
    await flow.getByText("Pays no one; echoes an invoice's number and amount through the desk.").waitFor();
    await flow.getByText("YAML steps in plugin.yaml").waitFor();
    const start = page.getByRole("region", { name: "Start a job" });
    await start.getByLabel("Invoice").fill("nine");
    await start.getByLabel("Amount").fill("-1");
    await start.getByRole("button", { name: "Start job" }).click();
    await start.getByRole("alert").filter({ hasText: "INVALID_INPUT" }).waitFor();
    // Each problem beside its field, and the field marked invalid.
    const problems = start.locator(".field-error");
    await problems.nth(1).waitFor();
    expect(await problems.allTextContents()).toEqual([
      'invoice: must match pattern "^INV-[0-9]+$"',
      "amount: must be >= 0",
    ]);
    expect(await start.getByLabel("Invoice").getAttribute("aria-invalid")).toBe("true");
    expect(await start.getByLabel("Amount").getAttribute("aria-invalid")).toBe("true");
    await shot("flow");
    expect(page.url()).toMatch(/\/flows\/console-lab\/invoice-flow$/);
    await start.getByLabel("Invoice").fill("INV-9");
    await start.getByLabel("Amount").fill("12.5");
    await start.getByRole("button", { name: "Start job" }).click();
    await page.waitForURL(/\/jobs\/[^/]+$/);
    await statusIs("succeeded");
    const answer = page.getByRole("region", { name: "Answer" });
    await answer.getByText("INV-9").waitFor();
    await answer.getByText("12.5").waitFor();
  });

  it("draws a job's context attribution: each part contributed, kept or evicted with its reason, with its token estimate", async () => {
    await startFromPage("console-lab/squeezed", "attribute");
    await statusIs("succeeded");
    const context = timeline().locator("[data-kind=context_part_contributed]");
    await context.locator("summary").click();
    const rows = context.locator("tbody tr");
    const cells = await Promise.all(
      Array.from({ length: await rows.count() }, (_, index) =>
        rows.nth(index).locator("td").allTextContents(),
      ),
    );
    // Its instructions fit the start-up budget of 40 tokens; its tools' manuals, after them, do not.
    expect(cells.map((row) => row.slice(1))).toEqual([
      ["instructions", "agent_definition", expect.stringMatching(/^\d+$/), "kept"],
      ["tool_manual", "tool_manual", expect.stringMatching(/^\d+$/), "evicted: budget_exceeded"],
    ]);
    const kept = Number(cells[0]![3]);
    expect(kept + Number(cells[1]![3])).toBeGreaterThan(40);
    expect(await context.locator("summary").textContent()).toBe(
      `Context 1 of 2 parts kept · about ${kept} tokens`,
    );
  });

  it("draws the governance events of a job's calls: checked, denied with its reason, and a hook's error", async () => {
    const packed = await packFolder(GUARD);
    const bundle = join(home, "console-guard.tgz");
    await writeFile(bundle, packed.archive);
    await page.goto(`${server.url}/t/${TENANT}/plugins`);
    const upload = page.getByRole("region", { name: "Install by upload" });
    await upload.getByLabel("Bundle (.tgz from oz0 plugin pack)").setInputFiles(bundle);
    await upload.getByRole("button", { name: "Install" }).click();
    await upload.getByRole("status").getByText("installed console-guard", { exact: true }).waitFor();
    await startFromPage("console-lab/inspector", "check again");
    const denied = timeline().locator("[data-kind=governance_denied]");
    await denied.getByText("the token check is refused by the guard", { exact: false }).waitFor();
    expect(await denied.getAttribute("class")).toContain("governance");
    await startFromPage("console-lab/troubler", "trouble");
    await statusIs("succeeded");
    const broke = timeline().locator("[data-kind=hook_error]");
    await broke.getByText("the guard broke on boom", { exact: false }).first().waitFor();
    await timeline().locator("[data-kind=governance_checked]").first().waitFor();
    // The broken optional hook let its call go on: both calls ran.
    expect(
      await timeline().locator("[data-kind=tool_call]").getByText("ok ·", { exact: false }).count(),
    ).toBe(2);
  });

  it("a viewer sees everything in scope and is offered nothing it may not do", async () => {
    // A call left held, so the inbox has one for the viewer to see.
    const job = await startFromPage("console-lab/payer", "pay INV-8");
    await timeline().getByText("Held for approval").first().waitFor();
    await signOut();
    await signIn("vic");
    const sections = page.getByRole("navigation", { name: "Sections" });
    expect(await sections.getByRole("link", { name: "Members" }).count()).toBe(0);
    expect(await sections.getByRole("link", { name: "Audit" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/approvals`);
    await page.getByRole("listitem").filter({ hasText: job }).waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/jobs/${job}`);
    await timeline().getByText("Held for approval").first().waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Cancel job" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByRole("heading", { name: "Kill switch" }).waitFor();
    await page.getByText("Running: not stopped.").waitFor();
    expect(await page.getByRole("heading", { name: "Start a job" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Stop / }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    await page.getByRole("heading", { name: "Tool policy" }).waitFor();
    await page.getByText("console-lab/desk.pay").first().waitFor();
    expect(await page.getByRole("button", { name: "Set rule" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/plugins/console-lab`);
    await page.getByRole("heading", { name: "Config" }).waitFor();
    expect(await page.getByRole("button", { name: "Save config" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/plugins/console-desk-user`);
    await page
      .getByRole("region", { name: "Grants" })
      .getByText("Granted for version", { exact: false })
      .waitFor();
    expect(await page.getByRole("button", { name: /Grant|Revoke/ }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/plugins`);
    await page.getByRole("region", { name: "Installed" }).getByRole("table").waitFor();
    expect(await page.getByRole("region", { name: "Install by upload" }).count()).toBe(0);
    // Usage is a viewer's to read; records, holds and erasure are not.
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    await page.getByRole("img", { name: "Cost per agent over the last 30 days" }).waitFor();
    expect(await sections.getByRole("link", { name: "Records" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/records`);
    await page.getByRole("alert").filter({ hasText: "FORBIDDEN" }).first().waitFor();
    for (const name of ["Erase", "Place hold", "Set retention", "Release"])
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/members`);
    await page.getByRole("alert").filter({ hasText: "FORBIDDEN" }).waitFor();
    await signOut();
  });

  it("a member limited to one agent finds no other: it is missing from every list, and its pages do not exist", async () => {
    await signIn("sam");
    await page.getByRole("link", { name: "console-lab/greeter" }).waitFor();
    expect(await page.getByRole("link", { name: "console-lab/payer" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/jobs`);
    await page.getByRole("heading", { name: "Jobs", level: 2 }).waitFor();
    await page.getByRole("link", { name: "console-lab/greeter" }).first().waitFor();
    expect(await page.getByRole("link", { name: "console-lab/payer" }).count()).toBe(0);
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/payer`);
    await page.getByRole("alert").filter({ hasText: "NOT_FOUND" }).waitFor();
    await page.goto(`${server.url}/t/${TENANT}/approvals`);
    await page.getByText("No call waits for a decision.").waitFor();
    // Its usage counts its one agent's calls, and no other's.
    await page.goto(`${server.url}/t/${TENANT}/governance`);
    const usage = page.getByRole("table", { name: "Usage per agent" });
    await usage.getByRole("cell", { name: "console-lab/greeter", exact: true }).waitFor();
    expect(await usage.locator("tbody tr").count()).toBe(1);
    // The recorded calls a pattern decides are its agent's jobs' calls alone.
    const recorded = page.getByRole("region", { name: "Recorded calls a pattern decides" });
    await recorded.getByLabel("Pattern to preview").fill("console-lab/*");
    await recorded.getByRole("button", { name: "Show the calls" }).click();
    const calls = recorded.getByRole("table", { name: "Recorded calls console-lab/* covers" });
    await calls.locator("tbody tr").first().waitFor();
    expect(new Set(await calls.locator("tbody tr td:nth-child(2)").allTextContents())).toEqual(
      new Set(["console-lab/greeter"]),
    );
    expect(await page.getByText("console-lab/payer").count()).toBe(0);
    // The runner may start the agent in its scope.
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByRole("button", { name: "Start job" }).waitFor();
  });

  it("fits a phone's width, and loaded nothing from off the machine", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/t/${TENANT}/agents/console-lab/greeter`);
    await page.getByRole("button", { name: "Start job" }).waitFor();
    // A string, run in the page: this file is typed for Node, not the DOM.
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await shot("agent-phone");
    expect(offMachine).toEqual([]);
  });
});
