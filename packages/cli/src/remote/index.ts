// The CLI as a client of an oz0 server: `--server URL` (or OZ0_SERVER) with the API key of
// OZ0_API_KEY or the file --api-key-file names (never a key on the command line, where other
// users of the machine could read it). Commands then call the server's API in --tenant.
import type { Caller } from "@oz0/runtime";
import type { Session } from "../context.js";
import { invalidInput, readOptionFile } from "../errors.js";
import type { GlobalOptions } from "../output.js";
import { ServerApi } from "./http.js";
import { remoteServices } from "./services.js";

export async function remoteSession(options: GlobalOptions): Promise<Session> {
  const url = await serverUrl(options.server ?? "");
  const key = await apiKey(options);
  const api = new ServerApi(url, options.tenant, key);
  // The server acts as its key's caller; this one only carries the tenant the URL names.
  const caller: Caller = Object.freeze({
    tenant: options.tenant,
    actor: "api-key",
    role: "viewer",
    agents: [],
  });
  return { services: remoteServices(api), caller };
}

async function serverUrl(text: string): Promise<string> {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw await invalidInput(
      `--server ${text}: it takes the URL of an oz0 server, such as http://127.0.0.1:7420 (oz0 serve prints it)`,
      "server",
      "not an http(s) URL",
    );
  }
  return url.toString();
}

async function apiKey(options: GlobalOptions): Promise<string> {
  if (options.apiKeyFile !== undefined) {
    const text = (
      await readOptionFile(options.apiKeyFile, {
        said: "--api-key-file",
        issue: "api-key-file",
        hint: "give the file holding the API key (oz0 key create prints it once)",
      })
    ).trim();
    if (text === "") {
      throw await invalidInput(
        `--api-key-file ${options.apiKeyFile}: the file is empty; put the API key in it`,
        "api-key-file",
        "empty",
      );
    }
    return text;
  }
  const key = process.env.OZ0_API_KEY?.trim() ?? "";
  if (key !== "") return key;
  throw await invalidInput(
    `--server ${options.server}: no API key; set OZ0_API_KEY, or name a file holding it with --api-key-file (oz0 key create makes one)`,
    "api-key-file",
    "missing",
  );
}
