// For admins: the tenant's members (role and agents in scope), its API keys (a new one shown
// once), and the audit log.
import { useState } from "preact/hooks";
import { type ApiError, api, type Me, ok, ROLES } from "../api";
import { useLoad } from "../load";
import { Empty, Failure, Json, Panel, Show, When } from "../parts/ui";

const agentList = (text: string) =>
  text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");

function RoleSelect(props: { id: string }) {
  return (
    <select id={props.id} name="role">
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

export function MembersPage(props: { me: Me }) {
  const { tenant } = props.me;
  const members = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/members", { params: { path: { tenant } } })),
    [tenant],
  );
  const [error, setError] = useState<ApiError | undefined>();
  const change = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(undefined);
      members.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  return (
    <>
      <h1>Members</h1>
      <Panel title="Members">
        <Show loaded={members}>
          {(data) => {
            const list = data.members as {
              user: string;
              role: string;
              agents: string[];
              updatedAt: number;
            }[];
            return list.length === 0 ? (
              <Empty>No members.</Empty>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">User</th>
                    <th scope="col">Role</th>
                    <th scope="col">Agents</th>
                    <th scope="col">Changed</th>
                    <th scope="col">Remove</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((member) => (
                    <tr key={member.user}>
                      <td>{member.user}</td>
                      <td>{member.role}</td>
                      <td>{member.agents.join(", ")}</td>
                      <td>
                        <When at={member.updatedAt} />
                      </td>
                      <td>
                        <button
                          type="button"
                          class="link"
                          aria-label={`Remove ${member.user}`}
                          onClick={() =>
                            change(() =>
                              ok(
                                api.DELETE("/v1/t/{tenant}/members/{user}", {
                                  params: { path: { tenant, user: member.user } },
                                }),
                              ),
                            )
                          }
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          }}
        </Show>
        <form
          class="filters"
          aria-label="Add or change a member"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget as HTMLFormElement);
            const user = String(form.get("user"));
            const role = String(form.get("role")) as (typeof ROLES)[number];
            const agents = agentList(String(form.get("agents") ?? ""));
            void change(() =>
              ok(
                api.PUT("/v1/t/{tenant}/members/{user}", {
                  params: { path: { tenant, user } },
                  body: { role, ...(agents.length === 0 ? {} : { agents }) },
                }),
              ),
            );
          }}
        >
          <div class="field">
            <label for="member-user">User</label>
            <input id="member-user" name="user" required />
          </div>
          <div class="field">
            <label for="member-role">Role</label>
            <RoleSelect id="member-role" />
          </div>
          <div class="field">
            <label for="member-agents">Agents</label>
            <input id="member-agents" name="agents" placeholder="* or plugin/agent, tag:name" />
          </div>
          <button type="submit">Save member</button>
        </form>
        {error === undefined ? null : <Failure error={error} />}
      </Panel>
    </>
  );
}

export function KeysPage(props: { me: Me }) {
  const { tenant } = props.me;
  const keys = useLoad(() => ok(api.GET("/v1/t/{tenant}/keys", { params: { path: { tenant } } })), [tenant]);
  const [error, setError] = useState<ApiError | undefined>();
  const [made, setMade] = useState<string | undefined>();
  return (
    <>
      <h1>API keys</h1>
      <Panel title="Keys">
        <Show loaded={keys}>
          {(data) => {
            const list = data.keys as {
              id: string;
              name: string;
              role: string;
              agents: string[];
              status: string;
              expiresAt: number | null;
            }[];
            return list.length === 0 ? (
              <Empty>No keys.</Empty>
            ) : (
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Name</th>
                      <th scope="col">Role</th>
                      <th scope="col">Agents</th>
                      <th scope="col">Status</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Revoke</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((key) => (
                      <tr key={key.id}>
                        <td>
                          <code>{key.id}</code>
                        </td>
                        <td>{key.name}</td>
                        <td>{key.role}</td>
                        <td>{key.agents.join(", ")}</td>
                        <td>{key.status}</td>
                        <td>
                          <When at={key.expiresAt} />
                        </td>
                        <td>
                          {key.status === "active" ? (
                            <button
                              type="button"
                              class="link"
                              aria-label={`Revoke key ${key.name}`}
                              onClick={async () => {
                                try {
                                  await ok(
                                    api.POST("/v1/t/{tenant}/keys/{id}/revoke", {
                                      params: { path: { tenant, id: key.id } },
                                    }),
                                  );
                                  keys.reload();
                                } catch (failure) {
                                  setError(failure as ApiError);
                                }
                              }}
                            >
                              Revoke
                            </button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          }}
        </Show>
        <form
          class="filters"
          aria-label="Create a key"
          onSubmit={async (event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget as HTMLFormElement);
            const agents = agentList(String(form.get("agents") ?? ""));
            try {
              const created = await ok(
                api.POST("/v1/t/{tenant}/keys", {
                  params: { path: { tenant } },
                  body: {
                    name: String(form.get("name")),
                    role: String(form.get("role")) as (typeof ROLES)[number],
                    ...(agents.length === 0 ? {} : { agents }),
                  },
                }),
              );
              setMade(created.key);
              setError(undefined);
              keys.reload();
            } catch (failure) {
              setError(failure as ApiError);
            }
          }}
        >
          <div class="field">
            <label for="key-name">Name</label>
            <input id="key-name" name="name" required />
          </div>
          <div class="field">
            <label for="key-role">Role</label>
            <RoleSelect id="key-role" />
          </div>
          <div class="field">
            <label for="key-agents">Agents</label>
            <input id="key-agents" name="agents" placeholder="*" />
          </div>
          <button type="submit">Create key</button>
        </form>
        {made === undefined ? null : (
          <p role="status">
            The new key, shown this once: <code class="secret">{made}</code>
          </p>
        )}
        {error === undefined ? null : <Failure error={error} />}
      </Panel>
    </>
  );
}

export function AuditPage(props: { me: Me }) {
  const { tenant } = props.me;
  const entries = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/audit", { params: { path: { tenant }, query: { limit: 200 } } })),
    [tenant],
  );
  return (
    <>
      <h1>Audit log</h1>
      <Panel title="Entries">
        <Show loaded={entries}>
          {(data) => {
            const list = data.entries as {
              seq: number;
              at: number;
              actor: string;
              role: string | null;
              action: string;
              target: string;
              detail: unknown;
            }[];
            return list.length === 0 ? (
              <Empty>Nothing recorded yet.</Empty>
            ) : (
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Actor</th>
                      <th scope="col">Action</th>
                      <th scope="col">Target</th>
                      <th scope="col">Detail</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((entry) => (
                      <tr key={entry.seq}>
                        <td>
                          <When at={entry.at} />
                        </td>
                        <td>
                          {entry.actor}{" "}
                          {entry.role === null ? null : <span class="muted">({entry.role})</span>}
                        </td>
                        <td>{entry.action}</td>
                        <td>
                          <code>{entry.target}</code>
                        </td>
                        <td>
                          <details>
                            <summary>Detail</summary>
                            <Json value={entry.detail} />
                          </details>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          }}
        </Show>
      </Panel>
    </>
  );
}
