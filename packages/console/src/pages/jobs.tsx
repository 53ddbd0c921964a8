// Jobs: the tenant's jobs (only its agents in the caller's scope), newest first, filtered by
// agent, status and time; the filters are in the address, so a filtered list can be linked.
import { api, type Me, ok } from "../api";
import { useLoad } from "../load";
import { Empty, Panel, Show, Status, When } from "../parts/ui";
import { Link, navigate, partPath, tenantPath } from "../router";

const STATUSES = ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "dead"] as const;
type JobStatus = (typeof STATUSES)[number];
const PERIODS: Record<string, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 };

export function JobsPage(props: { me: Me; query: URLSearchParams }) {
  const { tenant } = props.me;
  const agent = props.query.get("agent") ?? "";
  const status = (props.query.get("status") ?? "") as JobStatus | "";
  const since = props.query.get("since") ?? "";
  const jobs = useLoad(
    () =>
      ok(
        api.GET("/v1/t/{tenant}/jobs", {
          params: {
            path: { tenant },
            query: { ...(agent === "" ? {} : { agent }), ...(status === "" ? {} : { status }), limit: 200 },
          },
        }),
      ),
    [tenant, agent, status],
  );
  const after = PERIODS[since] === undefined ? 0 : Date.now() - (PERIODS[since] ?? 0);
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
        <div class="field">
          <label for="filter-agent">Agent</label>
          <input id="filter-agent" name="agent" value={agent} placeholder="plugin/agent" />
        </div>
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value} selected={value === status}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-since">Started</label>
          <select id="filter-since" name="since">
            <option value="">any time</option>
            {Object.keys(PERIODS).map((value) => (
              <option key={value} value={value} selected={value === since}>
                in the last {value}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <Panel title="Jobs">
        <Show loaded={jobs}>
          {(data) => {
            const shown = data.jobs.filter((job) => job.createdAt >= after);
            if (shown.length === 0) return <Empty>No jobs match.</Empty>;
            return (
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Job</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Status</th>
                      <th scope="col">Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((job) => (
                      <tr key={job.id}>
                        <td>
                          <Link href={tenantPath(tenant, "jobs", job.id)}>{job.id}</Link>
                        </td>
                        <td>
                          <Link href={partPath(tenant, "agents", job.agent)}>{job.agent}</Link>
                        </td>
                        <td>
                          <Status status={job.status} />
                        </td>
                        <td>
                          <When at={job.createdAt} />
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
