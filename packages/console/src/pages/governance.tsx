// Governance: the tool policy rules (add, remove, and which of the tenant's functions a pattern
// decides), the kill switches (effective on running jobs), and the inventory.
import { useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok } from "../api";
import { type Loaded, useLoad } from "../load";
import { covers, decidingRule, type Rule } from "../parts/policy";
import { Empty, Failure, Panel, Show, When } from "../parts/ui";

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
      <SwitchesPanel me={props.me} />
      <InventoryPanel me={props.me} />
    </>
  );
}

type RulesLoaded = Loaded<{ rules: Record<string, unknown>[] }>;

function PolicyPanel(props: { me: Me; rules: RulesLoaded }) {
  const { me, rules } = props;
  const { tenant } = me;
  const [error, setError] = useState<ApiError | undefined>();
  const [pattern, setPattern] = useState("");
  const change = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(undefined);
      rules.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  return (
    <Panel title="Tool policy">
      <Show loaded={rules}>
        {(data) => {
          const list = data.rules as unknown as Rule[];
          return list.length === 0 ? (
            <Empty>No rules: each agent's grant decides its calls.</Empty>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Pattern</th>
                  <th scope="col">Action</th>
                  {can(me, "operator") ? <th scope="col">Remove</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.map((rule) => (
                  <tr key={rule.pattern}>
                    <td>
                      <code>{rule.pattern}</code>
                    </td>
                    <td>{rule.action}</td>
                    {can(me, "operator") ? (
                      <td>
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
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </Show>
      {can(me, "operator") ? (
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
          <div class="field">
            <label for="rule-pattern">Pattern</label>
            <input
              id="rule-pattern"
              name="pattern"
              required
              placeholder="plugin/tool.function, plugin/tool.*, plugin/*"
              value={pattern}
              onInput={(event) => setPattern((event.currentTarget as HTMLInputElement).value)}
            />
          </div>
          <div class="field">
            <label for="rule-action">Action</label>
            <select id="rule-action" name="action">
              <option value="ask">ask</option>
              <option value="deny">deny</option>
              <option value="allow">allow</option>
            </select>
          </div>
          <button type="submit">Set rule</button>
        </form>
      ) : null}
      {error === undefined ? null : <Failure error={error} />}
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
      <div class="field">
        <label for="preview-pattern">Which calls does a pattern cover?</label>
        <input
          id="preview-pattern"
          placeholder="plugin/tool.*"
          value={pattern}
          onInput={(event) => setPattern((event.currentTarget as HTMLInputElement).value)}
        />
      </div>
      <Show loaded={parts}>
        {(data) => {
          const addresses = data.parts.filter((part) => part.kind === "function").map((part) => part.address);
          const shown = pattern === "" ? addresses : addresses.filter((address) => covers(pattern, address));
          if (shown.length === 0) return <Empty>{pattern} covers no function of this tenant.</Empty>;
          return (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Function</th>
                    <th scope="col">Decided by</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((address) => {
                    const rule = decidingRule(list, address);
                    return (
                      <tr key={address}>
                        <td>
                          <code>{address}</code>
                        </td>
                        <td>
                          {rule === undefined ? (
                            <span class="muted">the agent's grant</span>
                          ) : (
                            <code>{rule.pattern}</code>
                          )}
                        </td>
                        <td>{rule?.action ?? "allow (when granted)"}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          );
        }}
      </Show>
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
  const [error, setError] = useState<ApiError | undefined>();
  const change = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(undefined);
      switches.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
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
          <div class="field">
            <label for="switch-kind">Kind</label>
            <select id="switch-kind" name="kind">
              <option value="agent">agent</option>
              <option value="tool">tool</option>
            </select>
          </div>
          <div class="field">
            <label for="switch-address">Address</label>
            <input id="switch-address" name="address" required placeholder="plugin/name" />
          </div>
          <button type="submit" class="danger">
            Stop it
          </button>
        </form>
      ) : null}
      {error === undefined ? null : <Failure error={error} />}
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
            <table>
              <thead>
                <tr>
                  <th scope="col">Part</th>
                  <th scope="col">Purpose</th>
                  <th scope="col">Owner</th>
                </tr>
              </thead>
              <tbody>
                {list.map((entry) => (
                  <tr key={`${entry.kind} ${entry.address}`}>
                    <td>
                      {entry.kind} <code>{entry.address}</code>
                    </td>
                    <td>{entry.purpose}</td>
                    <td>{entry.owner ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </Show>
    </Panel>
  );
}
