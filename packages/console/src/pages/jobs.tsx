// Jobs: the tenant's jobs (only its agents in the caller's scope), newest first, filtered by
// agent, status and time started; the filters are in the address, so a filtered list can be
// linked, and every one of them is the API's (the period is sent as `since`).
import { api, type Me, ok } from "../api";
import { useLoad } from "../load";
import { Empty, Field, Panel, Show, Status, Table, When } from "../parts/ui";
import { Link, navigate, partPath, tenantPath } from "../router";

const STATUSES = ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "dead"] as const;
type JobStatus = (typeof STATUSES)[number];
const PERIODS: Record<string, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 };
/** How many jobs the list shows: the newest that match. */
const SHOWN = 200;

export function JobsPage(props: { me: Me; query: URLSearchParams }) {
  const { tenant } = props.me;
  const agent = props.query.get("agent") ?? "";
  const status = (props.query.get("status") ?? "") as JobStatus | "";
  const since = props.query.get("since") ?? "";
  const period = PERIODS[since];
  const jobs = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/jobs", {
          params: {
            path: { tenant },
            query: {
              ...(agent === "" ? {} : { agent }),
              ...(status === "" ? {} : { status }),
              // The period back from when the list is read, by the browser's clock.
              ...(period === undefined ? {} : { since: Date.now() - period }),
              limit: SHOWN,
            },
          },
        }),
      ),
    [tenant, agent, status, since],
  );
  return (
    <>
      <h1>Jobs</h1>
      <form
        class="filters"
        aria-label="Filter jobs"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget as HTMLFormElement);
          const query = new URLSearchParams();
          for (const key of ["agent", "status", "since"]) {
            const value = String(form.get(key) ?? "");
            if (value !== "") query.set(key, value);
          }
          navigate(`${tenantPath(tenant, "jobs")}${query.size === 0 ? "" : `?${query}`}`);
        }}
      >
        <Field id="filter-agent" label="Agent">
          <input id="filter-agent" name="agent" value={agent} placeholder="plugin/agent" />
        </Field>
        <Field id="filter-status" label="Status">
          <select id="filter-status" name="status">
            <option value="">any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value} selected={value === status}>
                {value}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-since" label="Started">
          <select id="filter-since" name="since">
            <option value="">any time</option>
            {Object.keys(PERIODS).map((value) => (
              <option key={value} value={value} selected={value === since}>
                in the last {value}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">Filter</button>
      </form>
      {since === "" || period !== undefined ? null : (
        <p class="failure" role="alert">
          since={since} is not a period this list offers ({Object.keys(PERIODS).join(", ")}): the jobs of any
          time are listed.
        </p>
      )}
      <Panel title="Jobs">
        <Show loaded={jobs}>
          {(data) => {
            if (data.jobs.length === 0) return <Empty>No jobs match.</Empty>;
            return (
              <>
                {data.jobs.length < SHOWN ? null : (
                  <p class="muted">
                    The newest {SHOWN} jobs that match; narrow the filters to find older ones.
                  </p>
                )}
                <Table
                  rows={data.jobs}
                  rowKey={(job) => job.id}
                  columns={[
                    {
                      head: "Job",
                      cell: (job) => <Link href={tenantPath(tenant, "jobs", job.id)}>{job.id}</Link>,
                    },
                    {
                      head: "Agent",
                      cell: (job) => <Link href={partPath(tenant, "agents", job.agent)}>{job.agent}</Link>,
                    },
                    { head: "Status", cell: (job) => <Status status={job.status} /> },
                    { head: "Started", cell: (job) => <When at={job.createdAt} /> },
                  ]}
                />
              </>
            );
          }}
        </Show>
      </Panel>
    </>
  );
}
