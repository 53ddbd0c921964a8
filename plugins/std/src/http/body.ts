// Reading a response body within the 1 MB limit, counted in decoded bytes: a gzip or brotli
// body of a few kilobytes can decode to gigabytes, so the body is decoded as a stream and
// the read stops at the first byte past the limit. Then it is turned into what a model reads:
// parsed JSON, text, or base64 for binary content.
import type { IncomingMessage } from "node:http";
import { pipeline, type Readable, Transform } from "node:stream";
import { TextDecoder } from "node:util";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { limitExceeded } from "../errors.js";

/** The response size limit, in decoded bytes. */
export const MAX_RESPONSE_BYTES = 1_048_576;
/** The encodings the tool asks for and decodes. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The encodings of a `content-encoding` header, or the first one oz0 cannot decode. */
export function contentDecoders(header: string | undefined): Transform[] | { readonly unsupported: string } {
  const names = (header ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "" && name !== "identity");
  const decoders: Transform[] = [];
  // Encodings are listed in the order they were applied; undo them last first.
  for (const name of names.reverse()) {
    const decoder = DECODERS[name];
    if (decoder === undefined) return { unsupported: name };
    decoders.push(decoder());
  }
  return decoders;
}

/**
 * The decoded body, at most `maxBytes` long; throws LIMIT_EXCEEDED as soon as it is longer,
 * and destroys the response so nothing more is read. The bytes on the wire are bounded too
 * (a little above `maxBytes`), so an endless stream of empty gzip members stops as well.
 */
export async function readBody(
  response: IncomingMessage,
  decoders: readonly Transform[],
  maxBytes: number = MAX_RESPONSE_BYTES,
): Promise<Buffer> {
  const tooLarge = () =>
    limitExceeded(
      `the response body is larger than ${maxBytes} bytes once decoded; the http tool reads at most ${maxBytes}. Ask for less (a range, a page, a filter) or another format.`,
      { limit: "response size", max: maxBytes, unit: "bytes" },
    );
  const streams = [response, byteLimit(maxBytes + WIRE_SLACK_BYTES, tooLarge), ...decoders];
  const decoded = pipeline(streams, () => {}) as unknown as Readable;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    throw error;
  }
  return Buffer.concat(chunks);
}

/** What compression may add to a body's size on the wire (headers, trailers, incompressible blocks). */
const WIRE_SLACK_BYTES = 65_536;

function byteLimit(max: number, tooLarge: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(tooLarge());
      else done(null, chunk);
    },
  });
}

export interface DecodedBody {
  readonly body: unknown;
  /** Present when the body is binary and given as base64. */
  readonly body_encoding?: "base64";
}

/** Parsed JSON for a JSON content type, text for text, base64 for anything else. */
export function presentBody(bytes: Buffer, contentType: string | undefined): DecodedBody {
  const type = (contentType ?? "").toLowerCase();
  const text = textOf(bytes, type);
  if (text === undefined) return { body: bytes.toString("base64"), body_encoding: "base64" };
  if (/[/+]json\b/.test(type) && text.trim() !== "") {
    try {
      return { body: JSON.parse(text) };
    } catch {
      // A body labelled JSON that is not is still worth reading as text.
    }
  }
  return { body: text };
}

const TEXTUAL =
  /^text\/|[/+](?:json|xml)\b|javascript|ecmascript|x-www-form-urlencoded|^application\/(?:yaml|x-yaml|toml|csv)\b/;

function textOf(bytes: Buffer, type: string): string | undefined {
  const charset = /charset="?([\w-]+)"?/.exec(type)?.[1] ?? "utf-8";
  if (TEXTUAL.test(type)) return decoderFor(charset, false).decode(bytes);
  if (type !== "") return undefined;
  // No content type: text when it is valid UTF-8.
  try {
    return decoderFor("utf-8", true).decode(bytes);
  } catch {
    return undefined;
  }
}

function decoderFor(charset: string, fatal: boolean): TextDecoder {
  try {
    return new TextDecoder(charset, { fatal });
  } catch {
    return new TextDecoder("utf-8", { fatal });
  }
}
