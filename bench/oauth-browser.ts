// The person's browser in the conformance suite's auth scenarios: it approves at once, following
// the authorization server's redirects until one reaches oz0's loopback listener.

/** Follows `url`'s redirects to `http://127.0.0.1:<port>/callback` and calls it. */
export async function approve(url: URL): Promise<void> {
  let next: URL = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    await response.body?.cancel();
    if (location === null) return;
    next = new URL(location, next);
    if (next.hostname === "127.0.0.1" && next.pathname === "/callback") {
      await (await fetch(next)).body?.cancel();
      return;
    }
  }
}
