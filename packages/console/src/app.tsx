// The console's frame: who is signed in (GET /v1/t/<tenant>/me), the navigation their role
// allows, and the page the address names. A caller not signed in is sent to sign in first.
import { useEffect, useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok, setCsrf } from "./api";
import { AuditPage, KeysPage, MembersPage } from "./pages/admin";
import { AgentPage, AgentsPage, FlowPage, ToolPage } from "./pages/agents";
import { ApprovalsPage } from "./pages/approvals";
import { ChannelsPage } from "./pages/channels";
import { ChatPage } from "./pages/chat";
import { GovernancePage } from "./pages/governance";
import { JobPage } from "./pages/job";
import { JobsPage } from "./pages/jobs";
import { PluginPage, PluginsPage } from "./pages/plugins";
import { RecordsPage } from "./pages/records";
import { SignInPage } from "./pages/sign-in";
import { Failure } from "./parts/ui";
import { Link, navigate, tenantPath, useLocation } from "./router";

export function App() {
  const location = useLocation();
  const segments = location.pathname
    .split("/")
    .filter((segment) => segment !== "")
    .map(decodeURIComponent);
  if (segments[0] !== "t" || segments[1] === undefined) return <SignInPage tenant="default" />;
  const tenant = segments[1];
  const rest = segments.slice(2);
  if (rest[0] === "sign-in") return <SignInPage tenant={tenant} next={location.searchParams.get("next")} />;
  return <SignedIn tenant={tenant} rest={rest} location={location} />;
}

function SignedIn(props: { tenant: string; rest: string[]; location: URL }) {
  const { tenant } = props;
  const [me, setMe] = useState<Me | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  useEffect(() => {
    ok(api.GET("/v1/t/{tenant}/me", { params: { path: { tenant } } })).then(
      (answer) => {
        setCsrf(answer.csrf);
        setMe(answer);
      },
      (failure: ApiError) => {
        if (failure.status === 401 || failure.status === 404) {
          const next = props.location.pathname + props.location.search;
          navigate(`${tenantPath(tenant, "sign-in")}?next=${encodeURIComponent(next)}`, { replace: true });
        } else setError(failure);
      },
    );
  }, [tenant]);
  if (error !== undefined) return <Failure error={error} />;
  if (me === undefined) return <p class="muted">Loading…</p>;
  return (
    <Frame me={me} current={props.rest[0] ?? "agents"}>
      <Page me={me} rest={props.rest} query={props.location.searchParams} />
    </Frame>
  );
}

/** The sections, each offered to the roles that may read it; `everyAgent`: only with agents * too. */
const SECTIONS: { path: string; label: string; role: Parameters<typeof can>[1]; everyAgent?: true }[] = [
  { path: "agents", label: "Agents", role: "viewer" },
  { path: "jobs", label: "Jobs", role: "viewer" },
  { path: "approvals", label: "Approvals", role: "viewer" },
  { path: "governance", label: "Governance", role: "viewer" },
  { path: "plugins", label: "Plugins", role: "viewer" },
  { path: "channels", label: "Channels", role: "viewer" },
  // Records belong to plugins, not agents: a membership limited to some agents reaches none.
  { path: "records", label: "Records", role: "operator", everyAgent: true },
  { path: "members", label: "Members", role: "admin" },
  { path: "keys", label: "Keys", role: "admin" },
  { path: "audit", label: "Audit", role: "admin" },
];

function Frame(props: { me: Me; current: string; children: preact.ComponentChildren }) {
  const { me } = props;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link class="brand" href={tenantPath(me.tenant, "agents")}>
          oz0 <span class="muted">· {me.tenant}</span>
        </Link>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.filter(
              (section) => can(me, section.role) && (section.everyAgent !== true || me.agents.includes("*")),
            ).map((section) => (
              <li key={section.path}>
                <Link
                  href={tenantPath(me.tenant, section.path)}
                  aria-current={props.current === section.path ? "page" : undefined}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {me.actor} <span class="role">{me.role}</span>
          </span>
          <button
            type="button"
            class="link"
            onClick={async () => {
              await api.DELETE("/v1/sessions");
              setCsrf(null);
              navigate(tenantPath(me.tenant, "sign-in"));
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}

function Page(props: { me: Me; rest: string[]; query: URLSearchParams }) {
  const { me, rest } = props;
  const [section, a, b] = rest;
  const address = a !== undefined && b !== undefined ? `${a}/${b}` : undefined;
  switch (section) {
    case undefined:
    case "agents":
      return address === undefined ? <AgentsPage me={me} /> : <AgentPage me={me} address={address} />;
    case "flows":
      return address === undefined ? <NotFound /> : <FlowPage me={me} address={address} />;
    case "tools":
      return address === undefined ? <NotFound /> : <ToolPage me={me} address={address} />;
    case "jobs":
      return a === undefined ? <JobsPage me={me} query={props.query} /> : <JobPage me={me} id={a} />;
    case "chat":
      return address === undefined ? <NotFound /> : <ChatPage me={me} address={address} />;
    case "approvals":
      return <ApprovalsPage me={me} />;
    case "governance":
      return <GovernancePage me={me} />;
    case "plugins":
      return a === undefined ? <PluginsPage me={me} /> : <PluginPage me={me} name={a} />;
    case "channels":
      return <ChannelsPage me={me} />;
    case "records":
      return <RecordsPage me={me} />;
    case "members":
      return <MembersPage me={me} />;
    case "keys":
      return <KeysPage me={me} />;
    case "audit":
      return <AuditPage me={me} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>This console has no page at this address.</p>
    </>
  );
}
