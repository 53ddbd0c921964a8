// `kind: Tool` manifests (spec/plugin-and-tool-authoring.txt §4): one function described in
// YAML, beside the module that runs it, so a library of sample tools ships as files that
// agents reference as `<plugin>:<path>` (`samples:tools/memory-search.tool.yaml`).
//
//   kind: Tool
//   name: memory_search                 # the tool ID
//   description: Semantic memory search.
//   spec:
//     entry: tools/memory-search.js     # ES module inside the plugin
//     function: search                  # a model sees memory_search__search
//     export: search                    # the module's export that runs it (default: default)
//     parameters:                       # JSON Schema of the arguments, an object
//       type: object
//       properties: { query: { type: string } }
//       required: [query]
import * as z from "zod";
import { describe, nameField, pluginPath, strictObject } from "./fields.js";

const EXPORT_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The JSON Schema of a function's arguments; providers take only `type: object` here. */
const parametersSchema = () =>
  z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
    if (schema.type === "object") return;
    const present = Object.hasOwn(schema, "type");
    ctx.addIssue({
      code: "custom",
      message: present
        ? `parameters is a JSON Schema of type: object, since a function takes named arguments; not ${describe(schema.type)}`
        : "parameters is a JSON Schema of type: object, since a function takes named arguments; add type: object",
      path: present ? ["type"] : [],
      input: schema,
    });
  });

export const toolManifestSchema = z.lazy(() =>
  strictObject({
    kind: z.literal("Tool", { error: "kind must be Tool" }),
    name: nameField("tool"),
    description: z.string().min(1, "a tool needs a description: the model reads it"),
    spec: strictObject({
      entry: pluginPath(),
      function: nameField("function"),
      export: z
        .string()
        .regex(EXPORT_NAME, "export names a JavaScript export, such as default or search")
        .default("default"),
      parameters: parametersSchema().default(() => ({ type: "object", properties: {} })),
    }),
  }),
);
export type ToolManifest = z.output<typeof toolManifestSchema>;
