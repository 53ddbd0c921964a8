// The samples plugin's code entry: the memory provider its memory tools search. The tools
// themselves are kind: Tool manifests (tools/*.tool.yaml), each naming a module of src/tools.
import { definePlugin, type PluginObject } from "@oz0/sdk";
import { notesMemory } from "./memory/notes.js";

export function createSamplesPlugin(): PluginObject {
  return definePlugin({
    setup(host) {
      host.addMemory(notesMemory);
    },
  });
}
