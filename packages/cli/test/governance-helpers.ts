// What the CLI's governance tests share: a home with the vault fixture plugin installed.
import { join } from "node:path";
import { oz0, tempHome } from "./run-cli.js";

export const VAULT = join(import.meta.dirname, "../../runtime/test/fixtures/policy/vault");

export async function homeWithVault(): Promise<{
  readonly home: string;
  readonly cleanup: () => Promise<void>;
  /** Runs oz0 with this home. */
  readonly run: (...args: string[]) => ReturnType<typeof oz0>;
}> {
  const made = await tempHome();
  const run = (...args: string[]) => oz0([...args, "--home", made.home]);
  const installed = await run("plugin", "install", VAULT);
  if (installed.code !== 0) throw new Error(`installing the vault fixture failed: ${installed.stderr}`);
  return { ...made, run };
}
