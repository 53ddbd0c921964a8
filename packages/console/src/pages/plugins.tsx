// Plugins: the tenant's plugins with version and bundle digest, install by upload (admins), and
// a plugin's page: its parts by address, its history, its live status (admin specs' status() and
// its runtimes), and the config form drawn from its admin spec's schema (secrets shown masked; a
// masked value sent back keeps the secret).
import { useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok } from "../api";
import { useLoad } from "../load";
import { SchemaForm } from "../parts/schema-form";
import { Empty, Failure, Json, Panel, Refusal, Show, Table, useChange, When } from "../parts/ui";
import { Link, partPath, tenantPath } from "../router";

export function PluginsPage(props: { me: Me }) {
  const { me } = props;
  const { tenant } = me;
  const plugins = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/plugins", { params: { path: { tenant } } })),
    [tenant],
  );
  return (
    <>
      <h1>Plugins</h1>
      <Panel title="Installed">
        <Show loaded={plugins}>
          {(data) =>
            data.plugins.length === 0 ? (
              <Empty>No plugins.</Empty>
            ) : (
              <Table
                rows={
                  data.plugins as {
                    name: string;
                    version: string;
                    digest?: string | null;
                    installedAt: number;
                  }[]
                }
                rowKey={(plugin) => plugin.name}
                columns={[
                  {
                    head: "Plugin",
                    cell: (plugin) => (
                      <Link href={tenantPath(tenant, "plugins", plugin.name)}>{plugin.name}</Link>
                    ),
                  },
                  { head: "Version", cell: (plugin) => plugin.version },
                  {
                    head: "Bundle digest",
                    cell: (plugin) => (
                      <code title={plugin.digest ?? ""}>{plugin.digest?.slice(0, 12) ?? "—"}</code>
                    ),
                  },
                  { head: "Installed", cell: (plugin) => <When at={plugin.installedAt} /> },
                ]}
              />
            )
          }
        </Show>
      </Panel>
      {can(me, "admin") ? <Upload me={me} onDone={plugins.reload} /> : null}
    </>
  );
}

function Upload(props: { me: Me; onDone: () => void }) {
  const { tenant } = props.me;
  const [error, setError] = useState<ApiError | undefined>();
  const [done, setDone] = useState<string | undefined>();
  return (
    <Panel title="Install by upload">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const file =
            (new FormData(event.currentTarget as HTMLFormElement).get("bundle") as File | null) ?? undefined;
          if (file === undefined) return;
          try {
            const report = await ok(
              api.POST("/v1/t/{tenant}/plugins", {
                params: { path: { tenant } },
                body: file as never,
                bodySerializer: (body: unknown) => body as Blob,
                headers: { "content-type": "application/gzip" },
              }),
            );
            setError(undefined);
            setDone(`installed ${String((report as { plugin?: string }).plugin ?? file.name)}`);
            props.onDone();
          } catch (failure) {
            setError(failure as ApiError);
          }
        }}
      >
        <div class="field">
          <label for="bundle">Bundle (.tgz from oz0 plugin pack)</label>
          <input id="bundle" name="bundle" type="file" accept=".tgz,application/gzip" required />
        </div>
        <button type="submit">Install</button>
      </form>
      {done === undefined ? null : <p role="status">{done}</p>}
      {error === undefined ? null : <Failure error={error} />}
    </Panel>
  );
}

type Detail = {
  name: string;
  version: string;
  description?: string;
  digest?: string | null;
  agents: { address: string; description?: string }[];
  flows: { address: string; description?: string }[];
  tools: { address: string; description?: string; functions: { address: string }[] }[];
  changes: { seq: number; action: string; version: string; at: number }[];
  grant: { version: string; by: string; at: number; uses: string[] } | null;
  ungranted: string[];
  uses: {
    plugin: string;
    version: string | null;
    installed: string | null;
    tools: string[];
    agents: string[];
    skills: string[];
  }[];
};

export function PluginPage(props: { me: Me; name: string }) {
  const { me, name } = props;
  const { tenant } = me;
  const detail = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/plugins/{name}", { params: { path: { tenant, name } } })),
    [tenant, name],
  );
  return (
    <>
      <h1>Plugin {name}</h1>
      <Panel title="Plugin">
        <Show loaded={detail}>
          {(answer) => {
            const data = answer as unknown as Detail;
            return (
              <>
                <dl class="fields">
                  <div>
                    <dt>Version</dt>
                    <dd>{data.version}</dd>
                  </div>
                  <div>
                    <dt>Description</dt>
                    <dd>{data.description ?? "—"}</dd>
                  </div>
                  <div>
                    <dt>Bundle digest</dt>
                    <dd>
                      <code>{data.digest ?? "—"}</code>
                    </dd>
                  </div>
                </dl>
                <h3>Parts</h3>
                <ul class="plain">
                  {data.agents.map((agent) => (
                    <li key={agent.address}>
                      agent <Link href={partPath(tenant, "agents", agent.address)}>{agent.address}</Link>
                    </li>
                  ))}
                  {data.flows.map((flow) => (
                    <li key={flow.address}>
                      flow <Link href={partPath(tenant, "flows", flow.address)}>{flow.address}</Link>
                    </li>
                  ))}
                  {data.tools.map((tool) => (
                    <li key={tool.address}>
                      tool <Link href={partPath(tenant, "tools", tool.address)}>{tool.address}</Link>{" "}
                      <span class="muted">
                        {tool.functions.map((fn) => fn.address.split(".").at(-1)).join(", ")}
                      </span>
                    </li>
                  ))}
                </ul>
                <h3>History</h3>
                <ul class="plain">
                  {data.changes.map((change) => (
                    <li key={change.seq}>
                      {change.action} {change.version} <When at={change.at} />
                    </li>
                  ))}
                </ul>
              </>
            );
          }}
        </Show>
      </Panel>
      <StatusPanel me={me} plugin={name} />
      <Show loaded={detail}>
        {(answer) => <GrantsPanel me={me} detail={answer as unknown as Detail} onChange={detail.reload} />}
      </Show>
      <ConfigPanel me={me} plugin={name} />
    </>
  );
}

/** A plugin's live status, asked again on Refresh: admin specs' status() and its runtimes. */
function StatusPanel(props: { me: Me; plugin: string }) {
  const { me, plugin } = props;
  const { tenant } = me;
  const status = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/plugins/{name}/status", { params: { path: { tenant, name: plugin } } })),
    [tenant, plugin],
  );
  return (
    <Panel
      title="Status"
      actions={
        <button type="button" onClick={() => status.reload()}>
          Refresh
        </button>
      }
    >
      <Show loaded={status}>{(data) => <StatusTables status={data} />}</Show>
    </Panel>
  );
}

function ConfigPanel(props: { me: Me; plugin: string }) {
  const { me, plugin } = props;
  const { tenant } = me;
  const config = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/plugins/{plugin}/config", { params: { path: { tenant, plugin } } })),
    [tenant, plugin],
  );
  const [error, setError] = useState<ApiError | undefined>();
  const [saved, setSaved] = useState(false);
  const save = async (value: Record<string, unknown>) => {
    try {
      await ok(
        api.PUT("/v1/t/{tenant}/plugins/{plugin}/config", {
          params: { path: { tenant, plugin } },
          body: { config: value },
        }),
      );
      setError(undefined);
      setSaved(true);
      config.reload();
    } catch (failure) {
      setSaved(false);
      setError(failure as ApiError);
    }
  };
  return (
    <Panel title="Config">
      <Show loaded={config}>
        {(data) =>
          can(me, "operator") ? (
            <SchemaForm
              key={JSON.stringify(data.config)}
              schema={data.schema ?? { type: "object" }}
              value={data.config}
              submitLabel="Save config"
              onSubmit={(value) => void save(value)}
            />
          ) : (
            <Json value={data.config} label="config" />
          )
        }
      </Show>
      {saved ? <p role="status">Saved.</p> : null}
      <Refusal error={error} />
    </Panel>
  );
}

/** What a plugin's `uses:` asks of other plugins, what its grant covers, and grant or revoke (admins). */
function GrantsPanel(props: { me: Me; detail: Detail; onChange: () => void }) {
  const { me, detail } = props;
  const { tenant } = me;
  const { error, change } = useChange(props.onChange);
  const path = { tenant, name: detail.name };
  const admin = can(me, "admin");
  return (
    <Panel title="Grants">
      {detail.uses.length === 0 ? (
        <Empty>Its uses: asks nothing of other plugins.</Empty>
      ) : (
        <>
          <Table
            label="What its uses: asks"
            rows={detail.uses}
            rowKey={(used) => used.plugin}
            columns={[
              {
                head: "Plugin",
                cell: (used) => <Link href={tenantPath(tenant, "plugins", used.plugin)}>{used.plugin}</Link>,
              },
              { head: "Versions", cell: (used) => used.version ?? "any" },
              {
                head: "Installed",
                cell: (used) => used.installed ?? <span class="failure">not installed</span>,
              },
              {
                head: "Parts",
                cell: (used) =>
                  [...used.tools, ...used.agents, ...used.skills].map((address) => (
                    <code key={address}>{address} </code>
                  )),
              },
            ]}
          />
          <p>
            {detail.grant === null ? (
              <strong>Not granted:</strong>
            ) : (
              <>
                Granted for version {detail.grant.version} by {detail.grant.by} <When at={detail.grant.at} />.
              </>
            )}{" "}
            {detail.ungranted.length === 0 ? (
              "Its grant covers all its uses: asks."
            ) : (
              <>
                Refused at run time until granted:{" "}
                {detail.ungranted.map((address) => (
                  <code key={address}>{address} </code>
                ))}
              </>
            )}
          </p>
        </>
      )}
      {admin && detail.uses.length > 0 ? (
        <div class="actions">
          {detail.ungranted.length > 0 ? (
            <button
              type="button"
              onClick={() =>
                change(() => ok(api.POST("/v1/t/{tenant}/plugins/{name}/grant", { params: { path } })))
              }
            >
              Grant what its uses: asks
            </button>
          ) : null}
          {detail.grant === null ? null : (
            <button
              type="button"
              class="danger"
              onClick={() =>
                change(() => ok(api.DELETE("/v1/t/{tenant}/plugins/{name}/grant", { params: { path } })))
              }
            >
              Revoke its grant
            </button>
          )}
        </div>
      ) : null}
      <Refusal error={error} />
    </Panel>
  );
}

/** A plugin's live status as its admin specs' status() and its runtimes report it. */
interface PluginStatus {
  readonly admin: readonly { name: string; state: string; message?: string }[];
  readonly runtimes: readonly {
    runtime: string;
    state: string;
    restarts: number;
    lastError: string | null;
    since: number | null;
    node: string | null;
  }[];
}

function StatusTables(props: { status: PluginStatus }) {
  const { status } = props;
  if (status.admin.length === 0 && status.runtimes.length === 0) {
    return <Empty>This plugin reports no status and runs no runtime.</Empty>;
  }
  return (
    <>
      {status.admin.length === 0 ? null : (
        <Table
          label="Admin status"
          rows={status.admin}
          rowKey={(entry) => entry.name}
          columns={[
            { head: "Admin", cell: (entry) => entry.name },
            {
              head: "State",
              cell: (entry) => <span class={`status status-${entry.state}`}>{entry.state}</span>,
            },
            { head: "Message", cell: (entry) => entry.message ?? "—" },
          ]}
        />
      )}
      {status.runtimes.length === 0 ? null : (
        <Table
          label="Runtimes"
          rows={status.runtimes}
          rowKey={(entry) => entry.runtime}
          columns={[
            { head: "Runtime", cell: (entry) => entry.runtime },
            {
              head: "State",
              cell: (entry) => <span class={`status status-${entry.state}`}>{entry.state}</span>,
            },
            { head: "Since", cell: (entry) => <When at={entry.since} /> },
            { head: "Node", cell: (entry) => entry.node ?? "—" },
            { head: "Restarts", numeric: true, cell: (entry) => entry.restarts },
            { head: "Last error", cell: (entry) => entry.lastError ?? "—" },
          ]}
        />
      )}
    </>
  );
}
