// OZ-S005 and OZ-S006: the two keywords that shape how an agent's structured answer is drawn as
// a card. x-oz0-diff: {before, after} names the two properties a diff compares, so they must
// be two different properties of the schema; x-oz0-order lists properties shown first, so
// each must be one.
import { finding, type LintFinding, type YamlPath } from "../finding.js";
import { asList, asMap, asString, type JsonSource, type Raw } from "../source.js";
import type { LintRule } from "./rule.js";

const DIFF = "x-oz0-diff";
const ORDER = "x-oz0-order";

export const checkCards: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const path = asString(agent.agent.output_schema);
    const schema = path === undefined ? undefined : files.schemas.get(path);
    const root = asMap(schema?.value);
    if (schema === undefined || root === undefined) continue;
    found.push(...checkDiff(schema, root), ...checkOrder(schema, root));
  }
  return found;
};

function placeIn(schema: JsonSource, path: YamlPath) {
  const place = schema.doc?.locate(path) ?? { line: 1, column: 1 };
  return { file: schema.file, line: place.line, column: place.column };
}

function propertiesOf(root: Raw): string[] {
  return Object.keys(asMap(root.properties) ?? {});
}

function known(properties: string[]): string {
  return properties.length === 0
    ? "the schema has no properties"
    : `its properties are ${properties.join(", ")}`;
}

function checkDiff(schema: JsonSource, root: Raw): LintFinding[] {
  if (!Object.hasOwn(root, DIFF)) return [];
  const diff = asMap(root[DIFF]);
  const properties = propertiesOf(root);
  if (diff === undefined) {
    return [
      finding(
        "OZ-S005",
        placeIn(schema, [DIFF]),
        `${DIFF} is a map {before, after} naming the two properties a diff compares`,
      ),
    ];
  }
  const found: LintFinding[] = [];
  const sides = ["before", "after"] as const;
  for (const side of sides) {
    const name = asString(diff[side]);
    if (name === undefined) {
      found.push(
        finding(
          "OZ-S005",
          placeIn(schema, [DIFF, side]),
          `${DIFF} needs ${side}: the name of a property of the schema`,
        ),
      );
    } else if (!properties.includes(name)) {
      found.push(
        finding(
          "OZ-S005",
          placeIn(schema, [DIFF, side]),
          `${DIFF}.${side} names '${name}', which is not a property of the schema; ${known(properties)}`,
        ),
      );
    }
  }
  const before = asString(diff.before);
  if (before !== undefined && before === asString(diff.after)) {
    found.push(
      finding(
        "OZ-S005",
        placeIn(schema, [DIFF, "after"]),
        `${DIFF} compares '${before}' with itself; name two different properties`,
      ),
    );
  }
  return found;
}

function checkOrder(schema: JsonSource, root: Raw): LintFinding[] {
  if (!Object.hasOwn(root, ORDER)) return [];
  const order = asList(root[ORDER]);
  const properties = propertiesOf(root);
  if (order === undefined) {
    return [
      finding("OZ-S006", placeIn(schema, [ORDER]), `${ORDER} is a list of property names, shown first`),
    ];
  }
  return order.flatMap((item, index) => {
    if (typeof item === "string" && properties.includes(item)) return [];
    const what = typeof item === "string" ? `'${item}'` : JSON.stringify(item);
    return [
      finding(
        "OZ-S006",
        placeIn(schema, [ORDER, index]),
        `${ORDER} names ${what}, which is not a property of the schema; ${known(properties)}`,
      ),
    ];
  });
}
