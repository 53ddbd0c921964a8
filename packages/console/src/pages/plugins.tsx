// Plugins: the tenant's plugins with version and bundle digest, install by upload (admins), and
// a plugin's page: its parts by address, its history, its live status (admin specs' status() and
// its runtimes), and the config form drawn from its admin spec's schema (secrets shown masked; a
// masked value sent back keeps the secret).
import { useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok } from "../api";
import { useLoad } from "../load";
import { SchemaForm } from "../parts/schema-form";
import { Empty, Failure, Json, Panel, Show, When } from "../parts/ui";
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
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Plugin</th>
                      <th scope="col">Version</th>
                      <th scope="col">Bundle digest</th>
                      <th scope="col">Installed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(
                      data.plugins as {
                        name: string;
                        version: string;
                        digest?: string | null;
                        installedAt: number;
                      }[]
                    ).map((plugin) => (
                      <tr key={plugin.name}>
                        <td>
                          <Link href={tenantPath(tenant, "plugins", plugin.name)}>{plugin.name}</Link>
                        </td>
                        <td>{plugin.version}</td>
                        <td>
                          <code title={plugin.digest ?? ""}>{plugin.digest?.slice(0, 12) ?? "—"}</code>
                        </td>
                        <td>
                          <When at={plugin.installedAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
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
      <ConfigPanel me={me} plugin={name} />
    </>
  );
}

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
      <Show loaded={status}>
        {(data) =>
          data.admin.length === 0 && data.runtimes.length === 0 ? (
            <Empty>This plugin reports no status and runs no runtime.</Empty>
          ) : (
            <>
              <ul class="plain">
                {data.admin.map((one) => (
                  <li key={one.name}>
                    {one.name}: <strong>{one.state}</strong>
                    {one.message === undefined ? null : ` · ${one.message}`}
                  </li>
                ))}
              </ul>
              {data.runtimes.length === 0 ? null : (
                <table>
                  <thead>
                    <tr>
                      <th>Runtime</th>
                      <th>State</th>
                      <th>Node</th>
                      <th>Restarts</th>
                      <th>Since</th>
                      <th>Last error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.runtimes.map((one) => (
                      <tr key={one.runtime}>
                        <td>{one.runtime}</td>
                        <td>{one.state}</td>
                        <td>{one.node ?? "—"}</td>
                        <td>{one.restarts}</td>
                        <td>
                          <When at={one.since} />
                        </td>
                        <td>{one.lastError ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )
        }
      </Show>
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
      {error === undefined ? null : <Failure error={error} />}
    </Panel>
  );
}
