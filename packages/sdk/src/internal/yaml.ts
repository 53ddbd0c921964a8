// The YAML the runtime writes and edits (converted plugin folders, skill proposals, `oz0 lint
// --fix`), from the SDK's own copy of yaml: every command that opens the runtime loads the SDK,
// and with one copy it reads and links one.
export { Composer, CST, isScalar, Parser, parse as parseYaml, stringify as stringifyYaml } from "yaml";
