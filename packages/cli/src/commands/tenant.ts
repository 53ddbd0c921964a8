// `oz0 tenant create NAME [--admin USER]`, `oz0 tenant list`: the installation's tenants. An
// admin of the default tenant with every agent manages them, embedded or through a server; an
// install into a tenant that does not exist still creates it.
import type { TenantView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { table } from "./plugin.js";

export function registerTenant(program: Command, out: Output): Command {
  const tenant = program
    .command("tenant")
    .description("the installation's tenants (an admin of tenant default)");

  tenant
    .command("create")
    .description("create a tenant; it gets the default plugins (std)")
    .argument("<name>", "lowercase letters, digits and single dashes")
    .option("--admin <user>", "make this user the new tenant's admin of every agent (oz0 user add makes one)")
    .action(async (name: string, options: { admin?: string }) => {
      const made = await withRuntime(out, ({ services, caller }) =>
        services.identity.createTenant(caller, name, { admin: options.admin }),
      );
      out.result(made, (view) =>
        options.admin === undefined
          ? `created tenant ${view.name}`
          : `created tenant ${view.name}; ${options.admin} is its admin`,
      );
    });

  tenant
    .command("list")
    .description("list the tenants")
    .action(async () => {
      const tenants = await withRuntime(out, ({ services, caller }) => services.identity.listTenants(caller));
      out.result(tenants, drawTenants);
    });

  return tenant;
}

function drawTenants(tenants: readonly TenantView[]): string {
  return table([
    ["TENANT", "CREATED"],
    ...tenants.map((tenant) => [tenant.name, new Date(tenant.createdAt).toISOString()]),
  ]);
}
