// The approvals inbox: each held call with the exact arguments it will run with and the rule
// that asked, approved or denied with a reason (by an approver); decided ones with who and when.
import { useState } from "preact/hooks";
import { api, can, type Me, ok } from "../api";
import { useLoad } from "../load";
import { Empty, Json, Panel, Show, Status, When } from "../parts/ui";
import { Link, tenantPath } from "../router";
import { Decide } from "./job";

type Approval = {
  id: string;
  job: string;
  agent: string;
  address: string;
  args: unknown;
  rule: string;
  status: string;
  reason: string | null;
  decidedBy: string | null;
  requestedAt: number;
  decidedAt: number | null;
};

export function ApprovalsPage(props: { me: Me }) {
  const { me } = props;
  const { tenant } = me;
  const [status, setStatus] = useState<"pending" | "all">("pending");
  const approvals = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/approvals", { params: { path: { tenant }, query: { status } } })),
    [tenant, status],
  );
  return (
    <>
      <h1>Approvals</h1>
      <fieldset class="tabs">
        <legend class="visually-hidden">Show</legend>
        <label>
          <input
            type="radio"
            name="show"
            checked={status === "pending"}
            onChange={() => setStatus("pending")}
          />{" "}
          Pending
        </label>
        <label>
          <input type="radio" name="show" checked={status === "all"} onChange={() => setStatus("all")} /> All
        </label>
      </fieldset>
      <Panel title={status === "pending" ? "Held calls" : "Every approval"}>
        <Show loaded={approvals}>
          {(data) => {
            const list = data.approvals as unknown as Approval[];
            if (list.length === 0)
              return (
                <Empty>{status === "pending" ? "No call waits for a decision." : "No approvals yet."}</Empty>
              );
            return (
              <ul class="cards">
                {list.map((approval) => (
                  <li key={approval.id} aria-label={`approval ${approval.id}`}>
                    <p>
                      <code>{approval.address}</code> <Status status={approval.status} />
                    </p>
                    <p class="muted">
                      Job <Link href={tenantPath(tenant, "jobs", approval.job)}>{approval.job}</Link> of{" "}
                      {approval.agent} · rule <code>{approval.rule}</code> · asked{" "}
                      <When at={approval.requestedAt} />
                    </p>
                    <Json value={approval.args} label="arguments it will run with" />
                    {approval.status === "pending" ? (
                      can(me, "approver") ? (
                        <Decide me={me} approval={approval.id} onDone={approvals.reload} />
                      ) : null
                    ) : (
                      <p>
                        {approval.status} by {approval.decidedBy ?? "—"} <When at={approval.decidedAt} />
                        {approval.reason === null ? null : <>: {approval.reason}</>}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            );
          }}
        </Show>
      </Panel>
    </>
  );
}
