// Reads untrusted YAML (every manifest a plugin ships) into plain data, refusing what could
// exhaust memory or reach an object's prototype, and remembering where each value sits in
// the file so that a schema problem can be reported at its line and column.
//
// We convert the yaml package's node tree ourselves instead of calling `toJS()`: that keeps
// each value's position, lets us count alias expansions and nesting on the expanded tree
// (the yaml package's `maxAliasCount` applies only inside `toJS()`), and gives one place
// that refuses tags and prototype keys.
import {
  Composer,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  type ParsedNode,
  Parser,
  visit,
  type YAMLMap,
  YAMLParseError,
} from "yaml";
import { invalidManifest, type ManifestIssue, type ManifestPath, unsafeYaml } from "./issues.js";

/** Bounds on one untrusted YAML document. */
export const YAML_LIMITS = {
  /** Largest file, in UTF-8 bytes (1 MiB). */
  maxBytes: 1024 * 1024,
  /** Deepest nesting of maps and lists, counted after aliases are expanded. */
  maxDepth: 64,
  /** Most alias (`*name`) expansions in one document, nested expansions included. */
  maxAliases: 100,
  /** Most nodes that alias expansions may copy in all. */
  maxAliasNodes: 10_000,
} as const;

/** Keys refused in every map: assigning them could reach an object's prototype. */
export const FORBIDDEN_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** The YAML 1.1 merge key; a plain `<<` merges the keys of the maps it names. */
const MERGE_KEY = "<<";

export interface SourcePosition {
  /** 1-based line in the file. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

export interface SafeYamlOptions {
  /** The file's path inside its plugin, used in every message. */
  readonly file: string;
  /** Lines of the file before `text` (a Markdown file's front matter starts after its `---`). */
  readonly lineOffset?: number;
}

/** YAML read safely: its data and the place of each value in the file. */
export interface SafeYamlDocument {
  readonly file: string;
  readonly value: unknown;
  /**
   * Where the value at `path` is written (or its key, with `at: "key"`). A path that does not
   * exist, such as a missing key, resolves to its nearest ancestor, with `found: false`.
   */
  locate(path: ManifestPath, at?: "key" | "value"): SourcePosition & { readonly found: boolean };
}

interface Offsets {
  key?: number;
  value: number;
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so most texts need no encoding to be judged.
  if (text.length > YAML_LIMITS.maxBytes) return text.length;
  if (text.length * 3 <= YAML_LIMITS.maxBytes) return text.length;
  return encoder.encode(text).length;
}

/** Throws `UNSAFE_YAML` when `text` is over YAML_LIMITS.maxBytes, before anything reads it. */
export function assertManifestSize(text: string, file: string): void {
  const size = byteLength(text);
  if (size > YAML_LIMITS.maxBytes) {
    throw unsafeYaml(
      { file, line: 1, column: 1 },
      `the file is ${size} bytes or more; a manifest may be at most ${YAML_LIMITS.maxBytes} bytes (1 MiB)`,
      YAML_LIMITS.maxBytes,
    );
  }
}

/**
 * Parses one YAML document from untrusted text. Throws `UNSAFE_YAML` for a refused construct
 * (too large, too deep, too many aliases, a tag, a prototype key) and `INVALID_MANIFEST` for a
 * syntax error, each with file, line and column.
 */
export function parseSafeYaml(text: string, options: SafeYamlOptions): SafeYamlDocument {
  const { file } = options;
  const lineOffset = options.lineOffset ?? 0;
  assertManifestSize(text, file);

  const lineCounter = new LineCounter();
  const place = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(line, 1) + lineOffset, column: Math.max(col, 1) };
  };
  const doc = composeDocument(text, lineCounter, (offset) =>
    unsafeYaml({ file, ...place(offset) }, tooDeepMessage, YAML_LIMITS.maxDepth),
  );
  if (doc.errors.length > 0) {
    throw invalidManifest(
      doc.errors.map(
        (error): ManifestIssue => ({
          file,
          ...place(error.pos[0]),
          path: [],
          message: `YAML syntax: ${error.message}`,
        }),
      ),
    );
  }

  const converter = new Converter(doc, file, place);
  const value = converter.convert(doc.contents, [], 0, false);
  const { positions } = converter;
  return {
    file,
    value,
    locate(path, at = "value") {
      for (let length = path.length; length >= 0; length--) {
        const offsets = positions.get(pathKey(path.slice(0, length)));
        if (offsets === undefined) continue;
        const found = length === path.length;
        const offset = found && at === "key" && offsets.key !== undefined ? offsets.key : offsets.value;
        return { ...place(offset), found };
      }
      return { line: 1 + lineOffset, column: 1, found: false };
    },
  };
}

const tooDeepMessage = `maps and lists nest deeper than ${YAML_LIMITS.maxDepth} levels here; flatten the structure`;

const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * The first YAML document in `text`, composed by the yaml package's own steps so that nesting
 * is refused while the text is tokenized: the composer recurses once per level, so a deep
 * document is refused before it is built. The composer's own duplicate-key check is off, since
 * it compares each key with every earlier one of its map; the converter checks keys instead.
 */
function composeDocument(
  text: string,
  lineCounter: LineCounter,
  tooDeep: (offset: number) => Error,
): Document.Parsed {
  const parser = new Parser(lineCounter.addNewLine);
  function* tokens() {
    lineCounter.addNewLine(0);
    for (const lexeme of new Lexer().lex(text)) {
      yield* parser.next(lexeme);
      // The stack holds the document, one entry per open map or list, and at most one scalar.
      if (parser.stack.length > YAML_LIMITS.maxDepth + 1) {
        const open = parser.stack.filter((token) => COLLECTIONS.has(token.type));
        const over = open[YAML_LIMITS.maxDepth];
        if (over !== undefined) throw tooDeep(over.offset);
      }
    }
    yield* parser.end();
  }
  // The core schema, whatever a %YAML directive says: YAML 1.1 would turn `yes` into true and
  // dates into Date objects, and enable merge keys we handle ourselves.
  const composer = new Composer({ schema: "core", merge: false, uniqueKeys: false, strict: true });
  let first: Document.Parsed | undefined;
  for (const doc of composer.compose(tokens(), true, text.length)) {
    if (first === undefined) first = doc;
    else {
      first.errors.push(
        new YAMLParseError(
          [doc.range[0], doc.range[1]],
          "MULTIPLE_DOCS",
          "the file holds more than one document (a second '---'); a manifest is one document, so remove the rest",
        ),
      );
      break;
    }
  }
  // compose(…, true, …) always ends with a document, empty when the text is.
  return first as Document.Parsed;
}

function pathKey(path: ManifestPath): string {
  return JSON.stringify(path);
}

class Converter {
  readonly positions = new Map<string, Offsets>();
  private readonly anchors: Map<Node, Node | undefined>;
  private aliases = 0;
  private aliasNodes = 0;
  /** Above 0 while a merged map is converted: its places must not move the map's own. */
  private merging = 0;
  /** Paths whose place was written outside a merge, which a merge leaves alone. */
  private readonly written = new Set<string>();

  private readonly file: string;
  private readonly place: (offset: number) => SourcePosition;

  constructor(doc: Document.Parsed, file: string, place: (offset: number) => SourcePosition) {
    this.file = file;
    this.place = place;
    this.anchors = aliasTargets(doc);
  }

  convert(node: unknown, path: ManifestPath, depth: number, viaAlias: boolean): unknown {
    if (node === null || node === undefined) return null;
    const parsed = node as ParsedNode;
    const offset = parsed.range?.[0] ?? 0;
    this.note(path, { value: offset });
    if (viaAlias && ++this.aliasNodes > YAML_LIMITS.maxAliasNodes) {
      throw this.unsafe(
        offset,
        `aliases expand to more than ${YAML_LIMITS.maxAliasNodes} values; write the values out instead of repeating an anchor`,
        YAML_LIMITS.maxAliasNodes,
      );
    }
    if (isAlias(parsed)) return this.convertAlias(parsed, path, depth);
    if (parsed.tag !== undefined) {
      throw this.unsafe(offset, `tags such as '${parsed.tag}' are not allowed in a manifest; remove the tag`);
    }
    if (isScalar(parsed)) return parsed.value;
    if (depth >= YAML_LIMITS.maxDepth) {
      throw this.unsafe(offset, tooDeepMessage, YAML_LIMITS.maxDepth);
    }
    if (isSeq(parsed)) {
      return parsed.items.map((item, index) => this.convert(item, [...path, index], depth + 1, viaAlias));
    }
    if (isMap(parsed)) return this.convertMap(parsed, path, depth, viaAlias);
    throw this.invalid(offset, path, "this YAML node is not a map, a list or a plain value");
  }

  private convertAlias(alias: ParsedNode, path: ManifestPath, depth: number): unknown {
    const offset = alias.range[0];
    if (++this.aliases > YAML_LIMITS.maxAliases) {
      throw this.unsafe(
        offset,
        `more than ${YAML_LIMITS.maxAliases} aliases are expanded in this document; repeat fewer anchors`,
        YAML_LIMITS.maxAliases,
      );
    }
    const target = this.anchors.get(alias);
    if (target === undefined) {
      const name = isAlias(alias) ? alias.source : "";
      throw this.invalid(offset, path, `alias *${name} names no anchor &${name} defined before it`);
    }
    const value = this.convert(target, path, depth, true);
    // An error about the aliased value as a whole points at the alias, not at the anchor.
    this.note(path, { value: offset });
    return value;
  }

  private convertMap(map: YAMLMap.Parsed, path: ManifestPath, depth: number, viaAlias: boolean): unknown {
    const result: Record<string, unknown> = {};
    const merges: unknown[] = [];
    for (const pair of map.items) {
      const keyNode = pair.key as ParsedNode | null;
      const keyOffset = keyNode?.range?.[0] ?? map.range[0];
      if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
        throw this.invalid(keyOffset, path, "a map key must be a plain word or string");
      }
      if (keyNode.tag !== undefined) {
        throw this.unsafe(
          keyOffset,
          `tags such as '${keyNode.tag}' are not allowed in a manifest; remove the tag`,
        );
      }
      const key = String(keyNode.value);
      if (key === MERGE_KEY && keyNode.type === "PLAIN") {
        merges.push(pair.value);
        continue;
      }
      if (FORBIDDEN_KEYS.includes(key)) {
        throw this.unsafe(
          keyOffset,
          `the key '${key}' is refused in a manifest, since it could reach an object's prototype; rename it`,
        );
      }
      if (Object.hasOwn(result, key)) {
        throw this.invalid(keyOffset, path, `duplicate key '${key}': a key may appear once in a map`);
      }
      const childPath = [...path, key];
      this.note(childPath, { key: keyOffset, value: keyOffset });
      result[key] = this.convert(pair.value, childPath, depth + 1, viaAlias);
    }
    for (const source of merges) this.merge(result, source, path, depth, viaAlias);
    return result;
  }

  /** Applies `<<: *base` (or a list of them): keys written in the map itself win. */
  private merge(
    result: Record<string, unknown>,
    source: unknown,
    path: ManifestPath,
    depth: number,
    viaAlias: boolean,
  ) {
    const sources = isSeq(source) ? source.items : [source];
    for (const item of sources) {
      const node = item as ParsedNode;
      const target = isAlias(node) ? this.anchors.get(node) : node;
      const offset = node?.range?.[0] ?? 0;
      if (!isMap(target)) throw this.invalid(offset, path, "the merge key << takes a map, or a list of maps");
      this.merging++;
      const merged = this.convert(item, path, depth, viaAlias) as Record<string, unknown>;
      this.merging--;
      for (const [key, value] of Object.entries(merged)) {
        if (!Object.hasOwn(result, key)) result[key] = value;
      }
    }
  }

  private note(path: ManifestPath, offsets: Partial<Offsets>): void {
    const key = pathKey(path);
    if (this.merging > 0 && this.written.has(key)) return;
    if (this.merging === 0) this.written.add(key);
    const known = this.positions.get(key);
    this.positions.set(key, { value: offsets.value ?? known?.value ?? 0, key: offsets.key ?? known?.key });
  }

  private unsafe(offset: number, message: string, limit?: number) {
    return unsafeYaml({ file: this.file, ...this.place(offset) }, message, limit);
  }

  private invalid(offset: number, path: ManifestPath, message: string) {
    return invalidManifest([{ file: this.file, ...this.place(offset), path, message }]);
  }
}

/** For each alias node, the node it names: the last one anchored with its name before it. */
function aliasTargets(doc: Document.Parsed): Map<Node, Node | undefined> {
  const anchored = new Map<string, Node>();
  const targets = new Map<Node, Node | undefined>();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) targets.set(node, anchored.get(node.source));
      else if (node.anchor !== undefined) anchored.set(node.anchor, node);
    },
  });
  return targets;
}
