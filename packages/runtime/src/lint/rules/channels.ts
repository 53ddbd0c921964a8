// OZ-S040 and OZ-S042: channels that could not work as registered. A routine of this plugin
// fired by one of its own channels names a channel the code registers (OZ-S040); and oz0 sends
// channels no notifications yet, so a channel that says it takes them is refused rather than
// left waiting for notifications that never come (OZ-S042).
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
    if ((channel.spec as { supportsNotifications?: unknown }).supportsNotifications === true) {
      found.push(
        finding(
          "OZ-S042",
          where,
          `the channel ${channel.name} says it supports notifications, which this oz0 does not send channels yet; leave supportsNotifications out (a channel answers the messages it receives)`,
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
