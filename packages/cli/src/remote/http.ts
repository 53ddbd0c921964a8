// Requests to an oz0 server's API, as one API key, in one tenant: JSON in and out, a bundle
// archive up, and the server's errors turned back into the Oz0Error it drew (code, message,
// data), so the CLI prints them, and exits, exactly as it does for the embedded runtime's.
import { ERROR_CODES, type ErrorCode, Oz0Error } from "@oz0/sdk";

export interface RequestOptions {
  /** Query parameters; undefined ones are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  /** A JSON body. */
  readonly json?: unknown;
  /** A bundle archive body (application/gzip). */
  readonly archive?: Uint8Array | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly signal?: AbortSignal | undefined;
}

export class ServerApi {
  /** The server's URL, without a trailing slash. */
  readonly url: string;
  readonly tenant: string;
  readonly #key: string;

  constructor(url: string, tenant: string, key: string) {
    this.url = url.replace(/\/+$/, "");
    this.tenant = tenant;
    this.#key = key;
  }

  /** `/v1/t/<tenant>` followed by `path`, each segment given as it is (encoded here). */
  tenantPath(...segments: readonly string[]): string {
    return ["/v1/t", this.tenant, ...segments]
      .map((part, at) => (at === 0 ? part : encodeURIComponent(part)))
      .join("/");
  }

  async get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.call<T>("GET", path, options);
  }

  async post<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.call<T>("POST", path, options);
  }

  async put<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.call<T>("PUT", path, options);
  }

  async delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.call<T>("DELETE", path, options);
  }

  /** Sends one request and reads its JSON answer; an error answer throws its Oz0Error. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    const text = await response.text();
    if (!response.ok) throw answeredError(method, path, response.status, text);
    // No content: a removal that answers nothing but that it was done.
    if (response.status === 204) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Oz0Error(
        "NETWORK_ERROR",
        `${method} ${this.url}${path} answered ${response.status} with a body that is not JSON; is ${this.url} an oz0 server?`,
        { data: { url: this.url, cause: `status ${response.status}, not JSON` } },
      );
    }
  }

  /** Sends one request and hands back the response as it is (an event stream). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const target = new URL(`${this.url}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) target.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#key}`,
      accept: "application/json",
      ...options.headers,
    };
    let body: Uint8Array | string | undefined;
    if (options.archive !== undefined) {
      headers["content-type"] = "application/gzip";
      body = options.archive;
    } else if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    try {
      return await fetch(target, { method, headers, body, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Oz0Error(
        "NETWORK_ERROR",
        `cannot reach the oz0 server at ${this.url} (${cause?.code ?? cause?.message ?? (error as Error).message}); is oz0 serve running there?`,
        {
          data: { url: this.url, cause: String(cause?.code ?? cause?.message ?? (error as Error).message) },
          cause: error,
        },
      );
    }
  }
}

/** The Oz0Error a server's error answer carries; an answer not in oz0's shape says what it was. */
export function answeredError(method: string, path: string, status: number, text: string): Oz0Error {
  let shape: { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  try {
    shape = JSON.parse(text) as typeof shape;
  } catch {
    shape = undefined;
  }
  const error = shape?.error;
  if (typeof error?.code === "string" && error.code in ERROR_CODES && typeof error.message === "string") {
    const data =
      typeof error.data === "object" && error.data !== null
        ? (error.data as Record<string, unknown>)
        : undefined;
    return new Oz0Error(error.code as ErrorCode, error.message, data === undefined ? undefined : { data });
  }
  return new Oz0Error(
    "NETWORK_ERROR",
    `${method} ${path} answered ${status} without an oz0 error: ${text.slice(0, 200)}`,
    { data: { url: path, cause: `status ${status}` } },
  );
}
