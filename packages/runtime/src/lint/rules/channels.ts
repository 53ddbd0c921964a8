// OZ-S040 and OZ-S042: channels that could not work as registered. A routine of this plugin
// fired by one of its own channels names a channel the code registers (OZ-S040); and a channel's
// notifications are switched on by the operator's config through `notificationsEnabled`, so a
// channel that says it supports them without that switch could never be sent one, and a switch
// on a channel that does not support them would turn on nothing (OZ-S042).
import { routineEvent } from "@oz0/sdk/internal";
import { finding, type LintFinding } from "../finding.js";
import { asList, asMap, asString, placeOf, pluginName } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkChannels: LintRule = (files) => {
  const manifest = files.manifest;
  const plugin = pluginName(files);
  if (manifest === undefined || plugin === undefined || files.code.status === "failed") return [];
  const found: LintFinding[] = [];
  const channels =
    files.code.status === "loaded"
      ? files.code.registrations.filter((entry) => entry.kind === "channel")
      : [];
  const where = placeOf(manifest, Object.hasOwn(manifest.raw, "main") ? ["main"] : [], "value");
  for (const channel of channels) {
    const spec = channel.spec as { supportsNotifications?: unknown; notificationsEnabled?: unknown };
    const supports = spec.supportsNotifications === true;
    const switched = typeof spec.notificationsEnabled === "function";
    if (supports && !switched) {
      found.push(
        finding(
          "OZ-S042",
          where,
          `the channel ${channel.name} says it supports notifications but gives no notificationsEnabled(config), so the operator could never switch them on; give notificationsEnabled, or leave supportsNotifications out`,
        ),
      );
    } else if (!supports && switched) {
      found.push(
        finding(
          "OZ-S042",
          where,
          `the channel ${channel.name} gives notificationsEnabled(config) but does not say supportsNotifications: true, so oz0 would send it none; set supportsNotifications: true, or leave notificationsEnabled out`,
        ),
      );
    }
  }
  const registered = new Set(channels.map((entry) => entry.name));
  (asList(manifest.raw.routines) ?? []).forEach((raw, r) => {
    const routine = asMap(raw);
    const event = asString(routine?.event);
    if (routine === undefined || event === undefined) return;
    const read = routineEvent(event);
    if (!("kind" in read) || read.kind !== "channel") return;
    const [owner, name] = read.channel.split("/") as [string, string];
    if (owner !== plugin || registered.has(name)) return;
    found.push(
      finding(
        "OZ-S040",
        placeOf(manifest, ["routines", r, "event"]),
        `routine ${asString(routine.name) ?? r} is fired by the channel ${read.channel}, which this plugin does not register (${
          registered.size === 0 ? "it registers no channel" : `its channels: ${[...registered].join(", ")}`
        }); name one it registers`,
      ),
    );
  });
  return found;
};
