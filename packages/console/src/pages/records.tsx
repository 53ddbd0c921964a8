// Records: what plugins' tools keep, for the tenant's people. The latest version of each record
// (filtered by plugin, kind and subject) with its versions on demand, each kind's retention,
// the legal holds (placed and released by operators), and erasure by subject (admins), which a
// hold covering the subject refuses.
import { useState } from "preact/hooks";
import { api, can, type Me, ok, type Schemas } from "../api";
import { useLoad } from "../load";
import { Empty, Field, Fold, Json, Panel, Refusal, Show, Table, useChange, When } from "../parts/ui";

type Filter = { plugin?: string; kind?: string; subject?: string };

export function RecordsPage(props: { me: Me }) {
  const { me } = props;
  return (
    <>
      <h1>Records</h1>
      <RecordsPanel me={me} />
      <RetentionPanel me={me} />
      <HoldsPanel me={me} />
      {can(me, "admin") ? <ErasePanel me={me} /> : null}
    </>
  );
}

/** The form's text fields that are filled in, as a filter. */
function filled(form: HTMLFormElement, names: readonly string[]): Record<string, string> {
  const data = new FormData(form);
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = String(data.get(name) ?? "").trim();
    if (value !== "") out[name] = value;
  }
  return out;
}

function RecordsPanel(props: { me: Me }) {
  const { tenant } = props.me;
  const [filter, setFilter] = useState<Filter>({});
  const records = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/records", { params: { path: { tenant }, query: filter } })),
    [tenant, filter.plugin, filter.kind, filter.subject],
  );
  return (
    <Panel title="Records">
      <form
        class="filters"
        aria-label="Filter records"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(filled(event.currentTarget as HTMLFormElement, ["plugin", "kind", "subject"]));
        }}
      >
        <Field id="records-plugin" label="Plugin">
          <input id="records-plugin" name="plugin" />
        </Field>
        <Field id="records-kind" label="Kind">
          <input id="records-kind" name="kind" />
        </Field>
        <Field id="records-subject" label="Subject">
          <input id="records-subject" name="subject" />
        </Field>
        <button type="submit">Filter</button>
      </form>
      <Show loaded={records}>
        {(data) =>
          data.records.length === 0 ? (
            <Empty>No records match.</Empty>
          ) : (
            <Table
              label="Records, newest first"
              rows={data.records}
              rowKey={(record) => `${record.plugin}/${record.kind}/${record.key}`}
              columns={[
                {
                  head: "Record",
                  cell: (record) => (
                    <code>
                      {record.plugin}/{record.kind}/{record.key}
                    </code>
                  ),
                },
                { head: "Subject", cell: (record) => record.subject ?? "—" },
                { head: "Version", numeric: true, cell: (record) => record.version },
                { head: "Written", cell: (record) => <When at={record.createdAt} /> },
                {
                  head: "Versions",
                  cell: (record) => (
                    <Fold summary={`Versions of ${record.key}`}>
                      {() => <Versions tenant={tenant} record={record} />}
                    </Fold>
                  ),
                },
              ]}
            />
          )
        }
      </Show>
    </Panel>
  );
}

/** Every version of one record, oldest first: read when opened. */
function Versions(props: { tenant: string; record: Schemas["Record"] }) {
  const { tenant, record } = props;
  const versions = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/records/{plugin}/{kind}/{key}/versions", {
          params: { path: { tenant, plugin: record.plugin, kind: record.kind, key: record.key } },
        }),
      ),
    [tenant, record.plugin, record.kind, record.key, record.version],
  );
  return (
    <Show loaded={versions}>
      {(data) => (
        <ol class="plain" aria-label={`Versions of ${record.key}`}>
          {data.versions.map((version) => (
            <li key={version.version}>
              version {version.version} <When at={version.createdAt} />
              <Json value={version.value} />
            </li>
          ))}
        </ol>
      )}
    </Show>
  );
}

function RetentionPanel(props: { me: Me }) {
  const { me } = props;
  const { tenant } = me;
  const retention = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/record-retention", { params: { path: { tenant } } })),
    [tenant],
  );
  const { error, change } = useChange(retention.reload);
  return (
    <Panel title="Retention">
      <Show loaded={retention}>
        {(data) =>
          data.retention.length === 0 ? (
            <Empty>Every kind's records are kept for ever.</Empty>
          ) : (
            <Table
              rows={data.retention}
              rowKey={(entry) => `${entry.plugin}/${entry.kind}`}
              columns={[
                {
                  head: "Kind",
                  cell: (entry) => (
                    <code>
                      {entry.plugin}/{entry.kind}
                    </code>
                  ),
                },
                { head: "Kept", numeric: true, cell: (entry) => `${entry.days} days` },
                {
                  head: "Set",
                  cell: (entry) => (
                    <>
                      by {entry.setBy} <When at={entry.setAt} />
                    </>
                  ),
                },
              ]}
            />
          )
        }
      </Show>
      {can(me, "operator") ? (
        <form
          class="filters"
          aria-label="Set a kind's retention"
          onSubmit={(event) => {
            event.preventDefault();
            const element = event.currentTarget as HTMLFormElement;
            const form = filled(element, ["plugin", "kind", "days"]);
            const days = form.days === undefined ? null : Number(form.days);
            void change(() =>
              ok(
                api.PUT("/v1/t/{tenant}/record-retention/{plugin}/{kind}", {
                  params: { path: { tenant, plugin: form.plugin ?? "", kind: form.kind ?? "" } },
                  body: { days },
                }),
              ),
            ).then((done) => done && element.reset());
          }}
        >
          <Field id="retention-plugin" label="Plugin">
            <input id="retention-plugin" name="plugin" required />
          </Field>
          <Field id="retention-kind" label="Kind">
            <input id="retention-kind" name="kind" required />
          </Field>
          <Field id="retention-days" label="Days (empty: for ever)">
            <input id="retention-days" name="days" type="number" min={1} max={36500} />
          </Field>
          <button type="submit">Set retention</button>
        </form>
      ) : null}
      <Refusal error={error} />
    </Panel>
  );
}

function holdScope(hold: Schemas["RecordHold"]): string {
  const part = [hold.plugin, hold.kind, hold.key].filter((value) => value !== undefined).join("/");
  const subject = hold.subject === undefined ? "" : `subject ${hold.subject}`;
  return [part, subject].filter((value) => value !== "").join(", ");
}

function HoldsPanel(props: { me: Me }) {
  const { me } = props;
  const { tenant } = me;
  const holds = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/record-holds", { params: { path: { tenant } } })),
    [tenant],
  );
  const { error, change } = useChange(holds.reload);
  return (
    <Panel title="Legal holds">
      <Show loaded={holds}>
        {(data) =>
          data.holds.length === 0 ? (
            <Empty>No hold is in force.</Empty>
          ) : (
            <Table
              rows={data.holds}
              rowKey={(hold) => hold.id}
              columns={[
                { head: "Covers", cell: (hold) => holdScope(hold) },
                { head: "Reason", cell: (hold) => hold.reason },
                {
                  head: "Placed",
                  cell: (hold) => (
                    <>
                      by {hold.placedBy} <When at={hold.placedAt} />
                    </>
                  ),
                },
                can(me, "operator") && {
                  head: "Release",
                  cell: (hold) => (
                    <button
                      type="button"
                      aria-label={`Release the hold on ${holdScope(hold)}`}
                      onClick={() =>
                        change(() =>
                          ok(
                            api.POST("/v1/t/{tenant}/record-holds/{id}/release", {
                              params: { path: { tenant, id: hold.id } },
                            }),
                          ),
                        )
                      }
                    >
                      Release
                    </button>
                  ),
                },
              ]}
            />
          )
        }
      </Show>
      {can(me, "operator") ? (
        <form
          class="filters"
          aria-label="Place a hold"
          onSubmit={(event) => {
            event.preventDefault();
            const element = event.currentTarget as HTMLFormElement;
            const form = filled(element, ["plugin", "kind", "key", "subject", "reason"]);
            void change(() =>
              ok(
                api.POST("/v1/t/{tenant}/record-holds", {
                  params: { path: { tenant } },
                  body: { ...form, reason: form.reason ?? "" },
                }),
              ),
            ).then((done) => done && element.reset());
          }}
        >
          <Field id="hold-plugin" label="Plugin">
            <input id="hold-plugin" name="plugin" />
          </Field>
          <Field id="hold-kind" label="Kind">
            <input id="hold-kind" name="kind" />
          </Field>
          <Field id="hold-key" label="Key">
            <input id="hold-key" name="key" />
          </Field>
          <Field id="hold-subject" label="Subject">
            <input id="hold-subject" name="subject" />
          </Field>
          <Field id="hold-reason" label="Reason">
            <input id="hold-reason" name="reason" required />
          </Field>
          <button type="submit">Place hold</button>
        </form>
      ) : null}
      <Refusal error={error} />
    </Panel>
  );
}

/** Erasure of every record about a subject, and of what job histories hold of them: an admin's. */
function ErasePanel(props: { me: Me }) {
  const { tenant } = props.me;
  const [erased, setErased] = useState<Schemas["RecordErasure"] | undefined>();
  const { error, change } = useChange(() => undefined);
  return (
    <Panel title="Erase a subject">
      <p class="muted">
        Removes every version of every record about the subject, in every plugin, and puts [erased] in place
        of them in the tenant's job histories. A legal hold covering the subject refuses it.
      </p>
      <form
        class="filters"
        aria-label="Erase a subject"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          const { subject } = filled(form, ["subject"]);
          if (subject === undefined) return;
          if (!window.confirm(`Erase every record about ${subject}? This cannot be undone.`)) return;
          setErased(undefined);
          void change(async () => {
            setErased(
              await ok(
                api.POST("/v1/t/{tenant}/record-erasures", {
                  params: { path: { tenant } },
                  body: { subject },
                }),
              ),
            );
          });
        }}
      >
        <Field id="erase-subject" label="Subject to erase">
          <input id="erase-subject" name="subject" required />
        </Field>
        <button type="submit" class="danger">
          Erase
        </button>
      </form>
      {erased === undefined ? null : (
        <p role="status">
          Erased {erased.subject}: {erased.records} records ({erased.versions} versions), and {erased.events}{" "}
          events in {erased.jobs} jobs.
        </p>
      )}
      <Refusal error={error} />
    </Panel>
  );
}
