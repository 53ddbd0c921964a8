// Writes packages/runtime/src/schemas/meta-schema.ts: the JSON Schema 2020-12 meta-schema's
// validator as ajv compiles it for the runtime's instance (schemas/validate.ts), as code. ajv
// compiles that meta-schema before the first schema a process checks, which costs more than the
// rest of a short `oz0 run`'s checks together; compiled here once, the code only loads.
// packages/runtime/test/schemas/meta-schema.test.ts holds the file to what this writes.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { metaSchemaSource } from "../packages/runtime/test/schemas/meta-schema-source.ts";

await writeFile(
  fileURLToPath(new URL("../packages/runtime/src/schemas/meta-schema.ts", import.meta.url)),
  metaSchemaSource(),
);
