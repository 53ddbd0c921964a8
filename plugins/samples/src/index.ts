// @oz0/plugin-samples: the code entry oz0 loads from plugin.yaml's `main: dist/index.js`. The
// sample tools are kind: Tool manifests under tools/; this entry registers the memory they use.
import { createSamplesPlugin } from "./plugin.js";

export { SAMPLE_TOOLS, type SampleExample, type SampleToolInfo } from "./info.js";
export { NOTES_MEMORY, type NotesProvider, notesMemory, notesProvider } from "./memory/notes.js";
export { SEED_NOTES, type SeedNote } from "./memory/seed.js";
export { createSamplesPlugin } from "./plugin.js";

export default createSamplesPlugin();
