// Signing in: a member's user name and password in a tenant, or an API key. The server answers
// with an HttpOnly session cookie, which the console's every API call then rides on.
import { useState } from "preact/hooks";
import { ApiError, api, ok, setCsrf } from "../api";
import { Failure } from "../parts/ui";
import { navigate, tenantPath } from "../router";

export function SignInPage(props: { tenant: string; next?: string | null }) {
  const [method, setMethod] = useState<"password" | "key">("password");
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? "");
    setBusy(true);
    try {
      const body =
        method === "key"
          ? { key: text("key") }
          : { tenant: text("tenant"), user: text("user"), password: text("password") };
      const session = await ok(api.POST("/v1/sessions", { body }));
      setCsrf(session.csrf);
      const next = props.next?.startsWith(`${tenantPath(session.tenant)}/`) ? props.next : undefined;
      navigate(next ?? tenantPath(session.tenant, "agents"));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, undefined));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to oz0</h1>
      <fieldset class="tabs">
        <legend class="visually-hidden">Sign in with</legend>
        <label>
          <input
            type="radio"
            name="method"
            checked={method === "password"}
            onChange={() => setMethod("password")}
          />{" "}
          With a password
        </label>
        <label>
          <input type="radio" name="method" checked={method === "key"} onChange={() => setMethod("key")} />{" "}
          With an API key
        </label>
      </fieldset>
      <form class="form" onSubmit={submit} aria-label="Sign in">
        {method === "password" ? (
          <>
            <div class="field">
              <label for="tenant">Tenant</label>
              <input id="tenant" name="tenant" required value={props.tenant} autocomplete="organization" />
            </div>
            <div class="field">
              <label for="user">User</label>
              <input id="user" name="user" required autocomplete="username" />
            </div>
            <div class="field">
              <label for="password">Password</label>
              <input id="password" name="password" type="password" required autocomplete="current-password" />
            </div>
          </>
        ) : (
          <div class="field">
            <label for="key">API key</label>
            <input id="key" name="key" type="password" required autocomplete="off" />
          </div>
        )}
        {error === undefined ? null : <Failure error={error} />}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
