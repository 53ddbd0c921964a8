// Addresses: every page and part has one (/t/<tenant>/agents/<plugin>/<name>), pushed to the
// browser's history, so a page can be linked, bookmarked and reloaded.
import type { AnchorHTMLAttributes, ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

/** The current address (path and query), redrawn when it changes. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const changed = () => setTick((tick) => tick + 1);
    listeners.add(changed);
    window.addEventListener("popstate", changed);
    return () => {
      listeners.delete(changed);
      window.removeEventListener("popstate", changed);
    };
  }, []);
  return new URL(window.location.href);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

/** A link that changes the page without reloading it; a modified click opens it as the browser would. */
export function Link({ href, children, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/** The address of a page of the tenant. */
export function tenantPath(tenant: string, ...segments: string[]): string {
  return `/t/${encodeURIComponent(tenant)}${segments.map((segment) => `/${segment}`).join("")}`;
}

/** An agent's, flow's or tool's page, by its address `<plugin>/<name>`. */
export function partPath(tenant: string, kind: "agents" | "flows" | "tools", address: string): string {
  const [plugin, name] = address.split("/");
  return tenantPath(tenant, kind, encodeURIComponent(plugin ?? ""), encodeURIComponent(name ?? ""));
}
