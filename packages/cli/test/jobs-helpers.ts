// What the CLI's job tests share: a home with the sample plugin and the job engine's fixture
// plugin installed.
import { join } from "node:path";
import { oz0, tempHome } from "./run-cli.js";

export const SAMPLE = join(import.meta.dirname, "../../../examples/support-triage");
export const FIXTURES = join(import.meta.dirname, "../../runtime/test/fixtures/jobs");

/** The tenant the job engine's fixture plugins go into, apart from the sample's `default`. */
export const LAB = "lab";

/**
 * A home with the sample plugin in tenant `default`, and the fixture plugins helpdesk and
 * clash-a (whose names the sample's would clash with) in tenant `lab`.
 */
export async function homeWithPlugins(
  options: { readonly embedded?: boolean } = {},
): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const made = await tempHome(options);
  const installs: [string, string][] = [
    [SAMPLE, "default"],
    [join(FIXTURES, "helpdesk"), LAB],
    [join(FIXTURES, "clash-a"), LAB],
  ];
  for (const [dir, tenant] of installs) {
    const installed = await oz0(["plugin", "install", dir, "--home", made.home, "--tenant", tenant]);
    if (installed.code !== 0) throw new Error(`installing ${dir} failed: ${installed.stderr}`);
  }
  return made;
}

export interface RunShape {
  id: string;
  agent: string;
  status: string;
  output: unknown;
  failure: { kind: string; message: string } | null;
}
