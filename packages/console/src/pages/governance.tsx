// Governance: the tool policy rules (add, remove, which of the tenant's functions a pattern
// decides, and which recorded calls a rule on a pattern would decide), the kill switches (effective on running jobs), the inventory, and budgets and usage
// (cost and tokens per agent, model and day, drawn as a chart).
import { useState } from "preact/hooks";
import { api, can, type Me, ok } from "../api";
import { type Loaded, useLoad } from "../load";
import { BarChart } from "../parts/chart";
import { covers, decidingRule, type Rule } from "../parts/policy";
import { Choice, Empty, Field, Panel, Refusal, Show, Table, useChange, When } from "../parts/ui";
import { Link, tenantPath } from "../router";

export function GovernancePage(props: { me: Me }) {
  const { tenant } = props.me;
  // One read of the rules serves both the rules panel and what they decide.
  const rules = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/policy", { params: { path: { tenant } } })),
    [tenant],
  );
  return (
    <>
      <h1>Governance</h1>
      <PolicyPanel me={props.me} rules={rules} />
      <DecidesPanel me={props.me} rules={rules} />
      <CallsPanel me={props.me} rules={rules} />
      <SwitchesPanel me={props.me} />
      <InventoryPanel me={props.me} />
      <UsagePanel me={props.me} />
      <BudgetsPanel me={props.me} />
    </>
  );
}

type RulesLoaded = Loaded<{ rules: Record<string, unknown>[] }>;

function PolicyPanel(props: { me: Me; rules: RulesLoaded }) {
  const { me, rules } = props;
  const { tenant } = me;
  const { error, change } = useChange(rules.reload);
  const [pattern, setPattern] = useState("");
  const operator = can(me, "operator");
  return (
    <Panel title="Tool policy">
      <Show loaded={rules}>
        {(data) => {
          const list = data.rules as unknown as Rule[];
          return list.length === 0 ? (
            <Empty>No rules: each agent's grant decides its calls.</Empty>
          ) : (
            <Table
              rows={list}
              rowKey={(rule) => rule.pattern}
              columns={[
                { head: "Pattern", cell: (rule) => <code>{rule.pattern}</code> },
                { head: "Action", cell: (rule) => rule.action },
                operator && {
                  head: "Remove",
                  cell: (rule) => (
                    <button
                      type="button"
                      class="link"
                      aria-label={`Remove the rule on ${rule.pattern}`}
                      onClick={() =>
                        change(() =>
                          ok(
                            api.DELETE("/v1/t/{tenant}/policy", {
                              params: { path: { tenant }, query: { pattern: rule.pattern } },
                            }),
                          ),
                        )
                      }
                    >
                      Remove
                    </button>
                  ),
                },
              ]}
            />
          );
        }}
      </Show>
      {operator ? (
        <form
          class="filters"
          aria-label="Add a rule"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget as HTMLFormElement);
            const action = String(form.get("action")) as "allow" | "ask" | "deny";
            void change(() =>
              ok(
                api.PUT("/v1/t/{tenant}/policy", { params: { path: { tenant } }, body: { action, pattern } }),
              ),
            );
          }}
        >
          <Field id="rule-pattern" label="Pattern">
            <input
              id="rule-pattern"
              name="pattern"
              required
              placeholder="plugin/tool.function, plugin/tool.*, plugin/*"
              value={pattern}
              onInput={(event) => setPattern((event.currentTarget as HTMLInputElement).value)}
            />
          </Field>
          <Field id="rule-action" label="Action">
            <select id="rule-action" name="action">
              <option value="ask">ask</option>
              <option value="deny">deny</option>
              <option value="allow">allow</option>
            </select>
          </Field>
          <button type="submit">Set rule</button>
        </form>
      ) : null}
      <Refusal error={error} />
    </Panel>
  );
}

/** Which rule decides each function of the tenant, and which functions a pattern being typed covers. */
function DecidesPanel(props: { me: Me; rules: RulesLoaded }) {
  const { tenant } = props.me;
  const parts = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/catalog", { params: { path: { tenant } } })),
    [tenant],
  );
  const [pattern, setPattern] = useState("");
  const list = (props.rules.data?.rules ?? []) as unknown as Rule[];
  return (
    <Panel title="What the rules decide">
      <Field id="preview-pattern" label="Which functions does a pattern cover?">
        <input
          id="preview-pattern"
          placeholder="plugin/tool.*"
          value={pattern}
          onInput={(event) => setPattern((event.currentTarget as HTMLInputElement).value)}
        />
      </Field>
      <Show loaded={parts}>
        {(data) => {
          const addresses = data.parts.filter((part) => part.kind === "function").map((part) => part.address);
          const shown = pattern === "" ? addresses : addresses.filter((address) => covers(pattern, address));
          if (shown.length === 0) return <Empty>{pattern} covers no function of this tenant.</Empty>;
          return (
            <Table
              rows={shown.map((address) => ({ address, rule: decidingRule(list, address) }))}
              rowKey={(row) => row.address}
              columns={[
                { head: "Function", cell: (row) => <code>{row.address}</code> },
                {
                  head: "Decided by",
                  cell: (row) =>
                    row.rule === undefined ? (
                      <span class="muted">the agent's grant</span>
                    ) : (
                      <code>{row.rule.pattern}</code>
                    ),
                },
                { head: "Action", cell: (row) => row.rule?.action ?? "allow (when granted)" },
              ]}
            />
          );
        }}
      </Show>
    </Panel>
  );
}

type Action = "allow" | "ask" | "deny";
/** How many covered calls the API answers with at most (`GET …/policy/calls`). */
const CALLS_SHOWN = 50;

/**
 * Which recorded calls of the caller's newest jobs a pattern covers, and what a rule on it would
 * decide of each beside what decides it now: one `GET …/policy/calls` when asked.
 */
function CallsPanel(props: { me: Me; rules: RulesLoaded }) {
  const { me, rules } = props;
  const { tenant } = me;
  const [asked, setAsked] = useState<{ pattern: string; action: Action } | undefined>();
  const calls = useLoad(
    () =>
      asked === undefined
        ? Promise.resolve(null)
        : ok(api.GET("/v1/t/{tenant}/policy/calls", { params: { path: { tenant }, query: asked } })),
    // Asked again when the rules change: what decides each call now may have changed with them.
    [tenant, asked, rules.data],
  );
  const decision = (decided: { action: Action; rule: string } | null) =>
    decided === null ? (
      <span class="muted">allow (the agent's grant)</span>
    ) : (
      <>
        {decided.action} <span class="muted">by</span> <code>{decided.rule}</code>
      </>
    );
  return (
    <Panel title="Recorded calls a pattern decides">
      <form
        class="filters"
        aria-label="Preview a rule on recorded calls"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget as HTMLFormElement);
          setAsked({
            pattern: String(form.get("pattern") ?? ""),
            action: String(form.get("action")) as Action,
          });
        }}
      >
        <Field id="calls-pattern" label="Pattern to preview">
          <input id="calls-pattern" name="pattern" required placeholder="plugin/tool.*" />
        </Field>
        <Field id="calls-action" label="As a rule that says">
          <select id="calls-action" name="action">
            <option value="ask">ask</option>
            <option value="deny">deny</option>
            <option value="allow">allow</option>
          </select>
        </Field>
        <button type="submit">Show the calls</button>
      </form>
      {asked === undefined ? (
        <p class="muted">
          The calls of the newest jobs you may see that a pattern covers, and what a rule on it would decide.
        </p>
      ) : (
        <Show loaded={calls}>
          {(data) =>
            data === null ? null : (
              <>
                <p class="muted">
                  Looked through {data.looked.calls} calls of the newest {data.looked.jobs} jobs
                  {data.calls.length === CALLS_SHOWN ? `; the newest ${CALLS_SHOWN} it covers are shown` : ""}
                  .
                </p>
                {data.calls.length === 0 ? (
                  <Empty>{data.pattern} covers none of them.</Empty>
                ) : (
                  // Up to 50 rows: they scroll inside the panel, and Tab through their job links scrolls too.
                  <div class="rows-scroll">
                    <Table
                      label={`Recorded calls ${data.pattern} covers`}
                      rows={data.calls}
                      rowKey={(call) => `${call.job} ${call.callId}`}
                      columns={[
                        {
                          head: "Called",
                          cell: (call) => (
                            <>
                              <When at={call.at} />
                              {call.held ? <span class="muted"> · held for approval</span> : null}
                            </>
                          ),
                        },
                        { head: "Agent", cell: (call) => call.agent },
                        { head: "Function", cell: (call) => <code>{call.function}</code> },
                        { head: "Arguments", cell: (call) => <code class="args">{call.args}</code> },
                        {
                          head: "Job",
                          cell: (call) => <Link href={tenantPath(tenant, "jobs", call.job)}>{call.job}</Link>,
                        },
                        { head: "Decided now", cell: (call) => decision(call.now) },
                        {
                          head: `With ${data.action} on ${data.pattern}`,
                          cell: (call) => decision(call.withRule),
                        },
                      ]}
                    />
                  </div>
                )}
              </>
            )
          }
        </Show>
      )}
    </Panel>
  );
}

function SwitchesPanel(props: { me: Me }) {
  const { me } = props;
  const { tenant } = me;
  const switches = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/kill-switches", { params: { path: { tenant } } })),
    [tenant],
  );
  const { error, change } = useChange(switches.reload);
  return (
    <Panel title="Kill switches">
      <Show loaded={switches}>
        {(data) => {
          const list = data.switches as {
            kind: "agent" | "tool";
            address: string;
            by: string | null;
            since: number;
          }[];
          return list.length === 0 ? (
            <Empty>Nothing is stopped.</Empty>
          ) : (
            <ul class="plain">
              {list.map((entry) => (
                <li key={`${entry.kind} ${entry.address}`}>
                  {entry.kind} <code>{entry.address}</code> stopped by {entry.by ?? "—"}{" "}
                  <When at={entry.since} />{" "}
                  {can(me, "operator") ? (
                    <button
                      type="button"
                      onClick={() =>
                        change(() =>
                          ok(
                            api.DELETE("/v1/t/{tenant}/kill-switches", {
                              params: {
                                path: { tenant },
                                query: { kind: entry.kind, address: entry.address },
                              },
                            }),
                          ),
                        )
                      }
                    >
                      Revive {entry.kind} {entry.address}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
      {can(me, "operator") ? (
        <form
          class="filters"
          aria-label="Stop an agent or tool"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget as HTMLFormElement);
            const kind = String(form.get("kind")) as "agent" | "tool";
            const address = String(form.get("address"));
            void change(() =>
              ok(
                api.POST("/v1/t/{tenant}/kill-switches", {
                  params: { path: { tenant } },
                  body: { kind, address },
                }),
              ),
            );
          }}
        >
          <Field id="switch-kind" label="Kind">
            <select id="switch-kind" name="kind">
              <option value="agent">agent</option>
              <option value="tool">tool</option>
            </select>
          </Field>
          <Field id="switch-address" label="Address">
            <input id="switch-address" name="address" required placeholder="plugin/name" />
          </Field>
          <button type="submit" class="danger">
            Stop it
          </button>
        </form>
      ) : null}
      <Refusal error={error} />
    </Panel>
  );
}

function InventoryPanel(props: { me: Me }) {
  const { tenant } = props.me;
  const inventory = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/inventory", { params: { path: { tenant } } })),
    [tenant],
  );
  return (
    <Panel title="Inventory">
      <Show loaded={inventory}>
        {(data) => {
          const list = data.entries as {
            kind: string;
            address: string;
            purpose: string;
            owner: string | null;
          }[];
          return list.length === 0 ? (
            <Empty>No entries: oz0 inventory set says what an agent or tool is for.</Empty>
          ) : (
            <Table
              rows={list}
              rowKey={(entry) => `${entry.kind} ${entry.address}`}
              columns={[
                {
                  head: "Part",
                  cell: (entry) => (
                    <>
                      {entry.kind} <code>{entry.address}</code>
                    </>
                  ),
                },
                { head: "Purpose", cell: (entry) => entry.purpose },
                { head: "Owner", cell: (entry) => entry.owner ?? "—" },
              ]}
            />
          );
        }}
      </Show>
    </Panel>
  );
}

type UsageBy = "agent" | "model" | "day";
type Measure = "cost" | "tokens";
const DAY_MS = 86_400_000;

const usd = (value: number) => `$${value < 0.01 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;
const count = (value: number) => value.toLocaleString("en-US");

/** Cost and tokens of the tenant's model calls per agent, model or day, as a chart and a table. */
function UsagePanel(props: { me: Me }) {
  const { tenant } = props.me;
  const [by, setBy] = useState<UsageBy>("agent");
  const [days, setDays] = useState(30);
  const [measure, setMeasure] = useState<Measure>("cost");
  // The period starts at a whole hour, so choosing the same one again asks the same question.
  const since = Math.floor((Date.now() - days * DAY_MS) / 3_600_000) * 3_600_000;
  const usage = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/usage", { params: { path: { tenant }, query: { by, since } } })),
    [tenant, by, since],
  );
  return (
    <Panel title="Usage">
      <form class="filters" aria-label="Usage shown" onSubmit={(event) => event.preventDefault()}>
        <Choice
          id="usage-by"
          label="Per"
          value={by}
          options={[
            ["agent", "agent"],
            ["model", "model"],
            ["day", "day"],
          ]}
          onChange={setBy}
        />
        <Choice
          id="usage-days"
          label="Over the last"
          value={String(days)}
          options={[
            ["1", "day"],
            ["7", "7 days"],
            ["30", "30 days"],
            ["90", "90 days"],
          ]}
          onChange={(value) => setDays(Number(value))}
        />
        <Choice
          id="usage-measure"
          label="Chart"
          value={measure}
          options={[
            ["cost", "cost"],
            ["tokens", "tokens"],
          ]}
          onChange={setMeasure}
        />
      </form>
      <Show loaded={usage}>
        {(data) => {
          if (data.rows.length === 0) return <Empty>No model calls in this period.</Empty>;
          const value = (row: (typeof data.rows)[number]) =>
            measure === "cost" ? row.costUsd : row.inputTokens + row.outputTokens;
          return (
            <>
              <BarChart
                label={`${measure === "cost" ? "Cost" : "Tokens"} per ${by} over the last ${days === 1 ? "day" : `${days} days`}`}
                rows={data.rows.map((row) => ({ key: row.key, value: value(row) }))}
                format={measure === "cost" ? usd : count}
              />
              <Table
                label={`Usage per ${by}`}
                rows={data.rows}
                rowKey={(row) => row.key}
                columns={[
                  {
                    head: by === "agent" ? "Agent" : by === "model" ? "Model" : "Day (UTC)",
                    cell: (row) => row.key,
                  },
                  { head: "Cost", numeric: true, cell: (row) => usd(row.costUsd) },
                  { head: "Input tokens", numeric: true, cell: (row) => count(row.inputTokens) },
                  { head: "Output tokens", numeric: true, cell: (row) => count(row.outputTokens) },
                  { head: "Model calls", numeric: true, cell: (row) => count(row.modelCalls) },
                ]}
                foot={
                  <tr>
                    <th scope="row">Total</th>
                    <td class="num">{usd(data.total.costUsd)}</td>
                    <td class="num">{count(data.total.inputTokens)}</td>
                    <td class="num">{count(data.total.outputTokens)}</td>
                    <td class="num">{count(data.total.modelCalls)}</td>
                  </tr>
                }
              />
            </>
          );
        }}
      </Show>
    </Panel>
  );
}

interface Ceiling {
  readonly tokens?: number;
  readonly usd?: number;
  readonly period?: string;
}

interface BudgetConfig {
  readonly job?: Ceiling;
  readonly agent?: Ceiling;
  readonly agents?: Record<string, Ceiling>;
  readonly tenant?: Ceiling;
}

/**
 * The budgets in force: the ceilings of the governance plugin's config (its budget check runs
 * before each model call); a tenant without the plugin has none.
 */
function BudgetsPanel(props: { me: Me }) {
  const { tenant } = props.me;
  const config = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/plugins/{plugin}/config", {
          params: { path: { tenant, plugin: "governance" } },
        }),
      ),
    [tenant],
  );
  return (
    <Panel title="Budgets">
      {config.error?.status === 404 ? (
        <Empty>
          No budgets: the governance plugin is not installed (oz0 plugin install plugins/governance, then set
          its budget config).
        </Empty>
      ) : (
        <Show loaded={config}>
          {(data) => {
            const budget = ((data.config as { budget?: BudgetConfig }).budget ?? {}) as BudgetConfig;
            const rows: { who: string; ceiling: Ceiling; period: string }[] = [];
            if (budget.job !== undefined)
              rows.push({ who: "each job", ceiling: budget.job, period: "the job" });
            if (budget.agent !== undefined)
              rows.push({ who: "each agent", ceiling: budget.agent, period: budget.agent.period ?? "day" });
            for (const [address, ceiling] of Object.entries(budget.agents ?? {}))
              rows.push({ who: address, ceiling, period: ceiling.period ?? "day" });
            if (budget.tenant !== undefined)
              rows.push({
                who: "the tenant",
                ceiling: budget.tenant,
                period: budget.tenant.period ?? "month",
              });
            if (rows.length === 0) return <Empty>No budget is set in the governance plugin's config.</Empty>;
            return (
              <Table
                label="Budget ceilings"
                rows={rows}
                rowKey={(row) => row.who}
                columns={[
                  { head: "Of", cell: (row) => row.who },
                  { head: "Per", cell: (row) => row.period },
                  {
                    head: "Cost ceiling",
                    numeric: true,
                    cell: (row) => (row.ceiling.usd === undefined ? "—" : usd(row.ceiling.usd)),
                  },
                  {
                    head: "Token ceiling",
                    numeric: true,
                    cell: (row) => (row.ceiling.tokens === undefined ? "—" : count(row.ceiling.tokens)),
                  },
                ]}
              />
            );
          }}
        </Show>
      )}
    </Panel>
  );
}
