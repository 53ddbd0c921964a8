// For admins: the tenant's members (role and agents in scope), its API keys (a new one shown
// once), and the audit log.
import { useState } from "preact/hooks";
import { api, type Me, ok, ROLES } from "../api";
import { useLoad } from "../load";
import { Empty, Field, Fold, Json, Panel, Refusal, Show, Table, useChange, When } from "../parts/ui";

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
  const { error, change } = useChange(members.reload);
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
              <Table
                rows={list}
                rowKey={(member) => member.user}
                columns={[
                  { head: "User", cell: (member) => member.user },
                  { head: "Role", cell: (member) => member.role },
                  { head: "Agents", cell: (member) => member.agents.join(", ") },
                  { head: "Changed", cell: (member) => <When at={member.updatedAt} /> },
                  {
                    head: "Remove",
                    cell: (member) => (
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
                    ),
                  },
                ]}
              />
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
          <Field id="member-user" label="User">
            <input id="member-user" name="user" required />
          </Field>
          <Field id="member-role" label="Role">
            <RoleSelect id="member-role" />
          </Field>
          <Field id="member-agents" label="Agents">
            <input id="member-agents" name="agents" placeholder="* or plugin/agent, tag:name" />
          </Field>
          <button type="submit">Save member</button>
        </form>
        <Refusal error={error} />
      </Panel>
    </>
  );
}

export function KeysPage(props: { me: Me }) {
  const { tenant } = props.me;
  const keys = useLoad(() => ok(api.GET("/v1/t/{tenant}/keys", { params: { path: { tenant } } })), [tenant]);
  const { error, change } = useChange(keys.reload);
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
              <Table
                rows={list}
                rowKey={(key) => key.id}
                columns={[
                  { head: "Id", cell: (key) => <code>{key.id}</code> },
                  { head: "Name", cell: (key) => key.name },
                  { head: "Role", cell: (key) => key.role },
                  { head: "Agents", cell: (key) => key.agents.join(", ") },
                  { head: "Status", cell: (key) => key.status },
                  { head: "Expires", cell: (key) => <When at={key.expiresAt} /> },
                  {
                    head: "Revoke",
                    cell: (key) =>
                      key.status === "active" ? (
                        <button
                          type="button"
                          class="link"
                          aria-label={`Revoke key ${key.name}`}
                          onClick={() =>
                            change(() =>
                              ok(
                                api.POST("/v1/t/{tenant}/keys/{id}/revoke", {
                                  params: { path: { tenant, id: key.id } },
                                }),
                              ),
                            )
                          }
                        >
                          Revoke
                        </button>
                      ) : null,
                  },
                ]}
              />
            );
          }}
        </Show>
        <form
          class="filters"
          aria-label="Create a key"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget as HTMLFormElement);
            const agents = agentList(String(form.get("agents") ?? ""));
            void change(async () => {
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
            });
          }}
        >
          <Field id="key-name" label="Name">
            <input id="key-name" name="name" required />
          </Field>
          <Field id="key-role" label="Role">
            <RoleSelect id="key-role" />
          </Field>
          <Field id="key-agents" label="Agents">
            <input id="key-agents" name="agents" placeholder="*" />
          </Field>
          <button type="submit">Create key</button>
        </form>
        {made === undefined ? null : (
          <p role="status">
            The new key, shown this once: <code class="secret">{made}</code>
          </p>
        )}
        <Refusal error={error} />
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
              <Table
                rows={list}
                rowKey={(entry) => entry.seq}
                columns={[
                  { head: "When", cell: (entry) => <When at={entry.at} /> },
                  {
                    head: "Actor",
                    cell: (entry) => (
                      <>
                        {entry.actor} {entry.role === null ? null : <span class="muted">({entry.role})</span>}
                      </>
                    ),
                  },
                  { head: "Action", cell: (entry) => entry.action },
                  { head: "Target", cell: (entry) => <code>{entry.target}</code> },
                  {
                    head: "Detail",
                    cell: (entry) => <Fold summary="Detail">{() => <Json value={entry.detail} />}</Fold>,
                  },
                ]}
              />
            );
          }}
        </Show>
      </Panel>
    </>
  );
}
