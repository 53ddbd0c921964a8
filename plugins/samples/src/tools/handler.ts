// What a kind: Tool manifest's `spec.export` names: a function of the arguments (already
// checked against the manifest's `parameters`), the call, and the plugin's tool context.
import type { FunctionCall, ToolContext } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import type { NotesProvider } from "../memory/notes.js";
import { NOTES_MEMORY } from "../memory/notes.js";

export type ToolHandler<Args> = (args: Args, call: FunctionCall, ctx: ToolContext) => unknown;

/** The notes memory the plugin registers, built for the calling tenant. */
export async function notes(ctx: ToolContext): Promise<NotesProvider> {
  if (ctx.memory === undefined) {
    throw new Oz0Error(
      "INTERNAL",
      "the memory tools need the plugin's memory provider, and this host gives tools none (ctx.memory)",
    );
  }
  return ctx.memory(NOTES_MEMORY);
}
