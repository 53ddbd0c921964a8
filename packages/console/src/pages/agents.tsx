// Agents: the tenant's agents and flows (only those in the caller's scope exist here), and an
// agent's page: what it is and uses, the rules that decide its calls, its kill switch, its
// recent jobs, and a form that starts a job from its input schema; a flow's page, with the same
// form from its input schema; and a tool's page, with its kill switch.
import { useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok } from "../api";
import { useLoad } from "../load";
import { decidingRule, type Rule } from "../parts/policy";
import { issuesOf, SchemaForm } from "../parts/schema-form";
import { Empty, Failure, Panel, Show, Status, When } from "../parts/ui";
import { Link, navigate, partPath, tenantPath } from "../router";

type Part = {
  kind: string;
  address: string;
  description?: string;
  tags?: string[];
  inventory?: { purpose: string };
};

export function AgentsPage(props: { me: Me }) {
  const { tenant } = props.me;
  const parts = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/catalog", { params: { path: { tenant } } })),
    [tenant],
  );
  const list = (kind: string, title: string, section: "agents" | "flows" | "tools") => (
    <Panel title={title}>
      <Show loaded={parts}>
        {(data) => {
          const of = (data.parts as Part[]).filter((part) => part.kind === kind);
          if (of.length === 0) return <Empty>None.</Empty>;
          return (
            <ul class="cards">
              {of.map((part) => (
                <li key={part.address}>
                  <Link href={partPath(tenant, section, part.address)}>{part.address}</Link>
                  <p>{part.description}</p>
                  {part.inventory === undefined ? null : (
                    <p class="muted">Purpose: {part.inventory.purpose}</p>
                  )}
                  {(part.tags ?? []).length === 0 ? null : (
                    <p class="tags">
                      {part.tags?.map((tag) => (
                        <span class="tag" key={tag}>
                          {tag}
                        </span>
                      ))}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
    </Panel>
  );
  return (
    <>
      <h1>Agents</h1>
      {list("agent", "Agents", "agents")}
      {list("flow", "Flows", "flows")}
      {list("tool", "Tools", "tools")}
    </>
  );
}

export function AgentPage(props: { me: Me; address: string }) {
  const { me, address } = props;
  const { tenant } = me;
  const [plugin, name] = address.split("/") as [string, string];
  const agent = useLoad(
    () =>
      ok(api.GET("/v1/t/{tenant}/agents/{plugin}/{name}", { params: { path: { tenant, plugin, name } } })),
    [tenant, address],
  );
  if (agent.error?.status === 404) {
    return (
      <>
        <h1>{address}</h1>
        <Failure error={agent.error} />
      </>
    );
  }
  return (
    <>
      <h1>{address}</h1>
      <Panel title="Agent">
        <Show loaded={agent}>
          {(data) => (
            <dl class="fields">
              <div>
                <dt>Description</dt>
                <dd>{data.description ?? "—"}</dd>
              </div>
              <div>
                <dt>Runtime</dt>
                <dd>{data.runtime}</dd>
              </div>
              <div>
                <dt>Model</dt>
                <dd>
                  {data.model === null ? "the plugin's" : data.model.use}
                  {data.model?.script === undefined ? null : (
                    <span class="muted"> · script {data.model.script}</span>
                  )}
                </dd>
              </div>
              <div>
                <dt>Tools</dt>
                <dd>
                  {data.tools.length === 0 ? "none" : null}
                  <ul class="inline">
                    {data.tools.map((tool) => (
                      <li key={tool}>
                        {tool.startsWith("oz.") ? (
                          <code>{tool}</code>
                        ) : (
                          <Link href={partPath(tenant, "tools", tool.split(".")[0] ?? tool)}>
                            <code>{tool}</code>
                          </Link>
                        )}
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
              <div>
                <dt>Skills</dt>
                <dd>{data.skills.length === 0 ? "none" : data.skills.join(", ")}</dd>
              </div>
              <div>
                <dt>Tags</dt>
                <dd>{data.tags.length === 0 ? "none" : data.tags.join(", ")}</dd>
              </div>
              <div>
                <dt>Purpose</dt>
                <dd>{data.inventory?.purpose ?? <span class="muted">not in the inventory</span>}</dd>
              </div>
              {data.failures.length === 0 ? null : (
                <div>
                  <dt>Declared failures</dt>
                  <dd>{data.failures.map((failure) => failure.kind).join(", ")}</dd>
                </div>
              )}
            </dl>
          )}
        </Show>
      </Panel>
      {can(me, "runner") ? (
        <Panel
          title="Start a job"
          actions={<Link href={tenantPath(tenant, "chat", plugin, name)}>Chat</Link>}
        >
          <Show loaded={agent}>
            {(data) => <StartForm me={me} address={address} schema={data.inputSchema} />}
          </Show>
        </Panel>
      ) : null}
      <AgentPolicy me={me} tools={agent.data?.tools ?? []} />
      <KillSwitch me={me} kind="agent" address={address} />
      <RecentJobs me={me} address={address} />
    </>
  );
}

/**
 * The form that starts a job of an agent or flow: a text box for text input, else the form its
 * input schema draws. What StartJob refuses (INVALID_INPUT) is drawn at the fields it is about.
 */
function StartForm(props: { me: Me; address: string; schema: Record<string, unknown> | null }) {
  const { tenant } = props.me;
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const issues = issuesOf(error);
  const start = async (input: unknown) => {
    setBusy(true);
    try {
      const job = await ok(
        api.POST("/v1/t/{tenant}/jobs", {
          params: { path: { tenant } },
          body: { agent: props.address, input },
        }),
      );
      navigate(tenantPath(tenant, "jobs", job.id));
    } catch (failure) {
      setError(failure as ApiError);
      setBusy(false);
    }
  };
  return (
    <>
      {props.schema === null ? (
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault();
            const text = new FormData(event.currentTarget as HTMLFormElement).get("input");
            void start(String(text ?? ""));
          }}
        >
          <div class="field">
            <label for="job-input">Input</label>
            <textarea
              id="job-input"
              name="input"
              rows={3}
              required
              aria-invalid={issues.length === 0 ? undefined : true}
              aria-describedby={issues.length === 0 ? undefined : "job-input-error"}
            />
            {issues.length === 0 ? null : (
              <small id="job-input-error" class="field-error">
                {issues.map((issue) => issue.message).join("; ")}
              </small>
            )}
          </div>
          <button type="submit" disabled={busy}>
            Start job
          </button>
        </form>
      ) : (
        <SchemaForm
          schema={props.schema}
          submitLabel="Start job"
          busy={busy}
          issues={issues}
          onSubmit={(value) => void start(value)}
        />
      )}
      {error === undefined ? null : <Failure error={error} />}
    </>
  );
}

function AgentPolicy(props: { me: Me; tools: readonly string[] }) {
  const { tenant } = props.me;
  const rules = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/policy", { params: { path: { tenant } } })),
    [tenant],
  );
  return (
    <Panel title="Policy on its calls">
      <Show loaded={rules}>
        {(data) => {
          const all = data.rules as unknown as Rule[];
          if (props.tools.length === 0) return <Empty>It calls no functions.</Empty>;
          return (
            <table>
              <thead>
                <tr>
                  <th scope="col">Function</th>
                  <th scope="col">Decided by</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {props.tools.map((tool) => {
                  const rule = decidingRule(all, tool);
                  return (
                    <tr key={tool}>
                      <td>
                        <code>{tool}</code>
                      </td>
                      <td>
                        {rule === undefined ? (
                          <span class="muted">its grant (no rule)</span>
                        ) : (
                          <code>{rule.pattern}</code>
                        )}
                      </td>
                      <td>{rule?.action ?? "allow"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          );
        }}
      </Show>
    </Panel>
  );
}

/** Whether an agent or tool is stopped, and for an operator the button that stops or revives it. */
export function KillSwitch(props: { me: Me; kind: "agent" | "tool"; address: string }) {
  const { me, kind, address } = props;
  const { tenant } = me;
  const switches = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/kill-switches", { params: { path: { tenant } } })),
    [tenant],
  );
  const [error, setError] = useState<ApiError | undefined>();
  const act = async (stop: boolean) => {
    try {
      if (stop)
        await ok(
          api.POST("/v1/t/{tenant}/kill-switches", { params: { path: { tenant } }, body: { kind, address } }),
        );
      else
        await ok(
          api.DELETE("/v1/t/{tenant}/kill-switches", {
            params: { path: { tenant }, query: { kind, address } },
          }),
        );
      setError(undefined);
      switches.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  return (
    <Panel title="Kill switch">
      <Show loaded={switches}>
        {(data) => {
          const set = (
            data.switches as { kind: string; address: string; by: string | null; since: number }[]
          ).find((entry) => entry.kind === kind && entry.address === address);
          return (
            <div class="row">
              <p>
                {set === undefined ? (
                  <>Running: not stopped.</>
                ) : (
                  <>
                    <strong>Stopped</strong> by {set.by} <When at={set.since} />: it starts no job, and its
                    running jobs end at their next step.
                  </>
                )}
              </p>
              {can(me, "operator") ? (
                set === undefined ? (
                  <button type="button" class="danger" onClick={() => act(true)}>
                    Stop {kind} {address}
                  </button>
                ) : (
                  <button type="button" onClick={() => act(false)}>
                    Revive {kind} {address}
                  </button>
                )
              ) : null}
            </div>
          );
        }}
      </Show>
      {error === undefined ? null : <Failure error={error} />}
    </Panel>
  );
}

function RecentJobs(props: { me: Me; address: string }) {
  const { tenant } = props.me;
  const jobs = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/jobs", {
          params: { path: { tenant }, query: { agent: props.address, limit: 10 } },
        }),
      ),
    [tenant, props.address],
  );
  return (
    <Panel
      title="Recent jobs"
      actions={
        <Link href={`${tenantPath(tenant, "jobs")}?agent=${encodeURIComponent(props.address)}`}>All</Link>
      }
    >
      <Show loaded={jobs}>
        {(data) =>
          data.jobs.length === 0 ? (
            <Empty>No jobs yet.</Empty>
          ) : (
            <ul class="plain">
              {data.jobs.map((job) => (
                <li key={job.id}>
                  <Link href={tenantPath(tenant, "jobs", job.id)}>{job.id}</Link>{" "}
                  <Status status={job.status} /> <When at={job.createdAt} />
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </Panel>
  );
}

/** A flow's page: what it is, and a form that starts a job from its input schema. */
export function FlowPage(props: { me: Me; address: string }) {
  const { me, address } = props;
  const { tenant } = me;
  const [plugin, name] = address.split("/") as [string, string];
  const flow = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/flows/{plugin}/{name}", { params: { path: { tenant, plugin, name } } })),
    [tenant, address],
  );
  if (flow.error?.status === 404) {
    return (
      <>
        <h1>{address}</h1>
        <Failure error={flow.error} />
      </>
    );
  }
  return (
    <>
      <h1>{address}</h1>
      <Panel title="Flow">
        <Show loaded={flow}>
          {(data) => (
            <dl class="fields">
              <div>
                <dt>Description</dt>
                <dd>{data.description ?? "—"}</dd>
              </div>
              <div>
                <dt>Plugin</dt>
                <dd>
                  <Link href={tenantPath(tenant, "plugins", data.plugin)}>{data.plugin}</Link>
                </dd>
              </div>
              <div>
                <dt>Steps</dt>
                <dd>{data.source === "yaml" ? "YAML steps in plugin.yaml" : "code (host.addFlow)"}</dd>
              </div>
              <div>
                <dt>Tags</dt>
                <dd>{data.tags.length === 0 ? "none" : data.tags.join(", ")}</dd>
              </div>
              <div>
                <dt>Purpose</dt>
                <dd>{data.inventory?.purpose ?? <span class="muted">not in the inventory</span>}</dd>
              </div>
            </dl>
          )}
        </Show>
      </Panel>
      {can(me, "runner") ? (
        <Panel title="Start a job">
          <Show loaded={flow}>
            {(data) => <StartForm me={me} address={address} schema={data.inputSchema} />}
          </Show>
        </Panel>
      ) : null}
      <RecentJobs me={me} address={address} />
    </>
  );
}

/** A tool's page: the tool as the catalog has it, and its kill switch. */
export function ToolPage(props: { me: Me; address: string }) {
  const { me, address } = props;
  const { tenant } = me;
  const part = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/catalog/lookup", {
          params: { path: { tenant }, query: { name: address, kind: "tool" } },
        }),
      ),
    [tenant, address],
  );
  return (
    <>
      <h1>{address}</h1>
      <Panel title="Tool">
        <Show loaded={part}>
          {(data) => (
            <dl class="fields">
              <div>
                <dt>Description</dt>
                <dd>{String((data as { description?: string }).description ?? "—")}</dd>
              </div>
              <div>
                <dt>Plugin</dt>
                <dd>
                  <Link href={tenantPath(tenant, "plugins", data.plugin)}>{data.plugin}</Link>
                </dd>
              </div>
            </dl>
          )}
        </Show>
      </Panel>
      <KillSwitch me={me} kind="tool" address={address} />
    </>
  );
}
