// The import rules `npm run deps` checks (CI runs it): the packages point one way, and inside
// the runtime each folder imports only folders below it in RUNTIME_LAYERS, through their
// index.ts. ARCHITECTURE.md lists the same layers; a test keeps the two the same.
const RUNTIME = "^packages/runtime/src/";

/**
 * The runtime's folders, lowest first: a folder may import the folders before it in this
 * list, never one after it. Folders on the same line are one layer and do not import each other.
 */
const RUNTIME_LAYERS = require("./packages/runtime/layers.json");

const folders = RUNTIME_LAYERS.flat();
const layerOf = new Map(RUNTIME_LAYERS.flatMap((layer, index) => layer.map((folder) => [folder, index])));

const layerRules = folders.map((folder) => {
  const above = folders.filter((other) => other !== folder && layerOf.get(other) >= layerOf.get(folder));
  const below = folders.filter((other) => layerOf.get(other) < layerOf.get(folder));
  return {
    name: `layer-${folder}`,
    severity: "error",
    comment:
      `${folder}/ may import only the runtime folders below it (${below.join(", ") || "none"}); ` +
      "move what both need down a layer, or pass it in from above (ARCHITECTURE.md, Layers).",
    from: { path: `${RUNTIME}${folder}/` },
    to: { path: `${RUNTIME}(${above.join("|")})/` },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A cycle of imports that runs at load time: break it by moving what both modules need into a third one.",
      from: { path: "^packages/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "through-index",
      severity: "error",
      comment:
        "Import another runtime folder through its index.ts (`../<folder>/index.js`); export what you need there.",
      from: { path: `${RUNTIME}([^/]+)/` },
      to: { path: `${RUNTIME}[^/]+/`, pathNot: [`${RUNTIME}$1/`, `${RUNTIME}[^/]+/index\\.ts$`] },
    },
    {
      name: "runtime-folders-known",
      severity: "error",
      comment:
        "A runtime folder that packages/runtime/layers.json does not place: add it to its layer there and to ARCHITECTURE.md.",
      from: { path: RUNTIME },
      to: { path: `${RUNTIME}[^/]+/`, pathNot: `${RUNTIME}(${folders.join("|")})/` },
    },
    {
      name: "sdk-stands-alone",
      severity: "error",
      comment: "@oz0/sdk is what plugins import: it may not import the runtime, the CLI or the server.",
      from: { path: "^packages/sdk/" },
      to: { path: "^packages/(runtime|cli|server)/" },
    },
    {
      name: "runtime-below-surfaces",
      severity: "error",
      comment: "The runtime is below every surface: it may not import the CLI or the server.",
      from: { path: "^packages/runtime/" },
      to: { path: "^packages/(cli|server)/" },
    },
    {
      name: "server-below-the-cli",
      severity: "error",
      comment:
        "The server may not import the CLI; the CLI imports the server only as `@oz0/server` (oz0 serve), what its index.ts exports.",
      from: { path: "^packages/server/" },
      to: { path: "^packages/cli/" },
    },
    {
      name: "server-through-its-entry",
      severity: "error",
      comment:
        "The CLI imports the server as `@oz0/server`, what its index.ts exports, never a file inside it.",
      from: { path: "^packages/cli/" },
      to: { path: "^packages/server/", pathNot: "^packages/server/src/index\\.ts$" },
    },
    {
      name: "runtime-through-its-entry",
      severity: "error",
      comment:
        "A surface imports the runtime as `@oz0/runtime`, what its index.ts exports, never a file inside it.",
      from: { path: "^packages/(cli|server)/" },
      to: { path: "^packages/runtime/", pathNot: "^packages/runtime/src/index\\.ts$" },
    },
    {
      name: "plugins-use-only-the-sdk",
      severity: "error",
      comment: "A plugin imports only @oz0/sdk, as third-party plugins do.",
      from: { path: "^plugins/" },
      to: { path: "^packages/(runtime|cli|server)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(test|dist)/" },
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@oz0/source", "import", "default"],
    },
    combinedDependencies: true,
  },
};
