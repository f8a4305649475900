/**
 * A part of an answer already written as JSON text (a list of thousands of people, kept serialized between
 * requests): the HTTP layer writes it into the answer as it is, instead of serializing the value again. Its parts
 * are strings or UTF-8 bytes, written one after the other: bytes are passed on between services without being
 * decoded, and a list kept as bytes can have one element replaced by slicing around it (no copy of the rest).
 */
const JSON_TEXT = Symbol.for('confab.jsonText');

export type JsonTextPart = string | Uint8Array;

export interface JsonText {
  readonly [JSON_TEXT]: readonly JsonTextPart[];
}

/** Marks `parts` (together valid JSON, which the caller guarantees) as a value to be written as it is. */
export function jsonText(...parts: JsonTextPart[]): JsonText {
  return { [JSON_TEXT]: parts };
}

/** The parts of a marked value; undefined for anything else. */
export function jsonTextParts(value: unknown): readonly JsonTextPart[] | undefined {
  return typeof value === 'object' && value !== null && JSON_TEXT in value ? (value as JsonText)[JSON_TEXT] : undefined;
}

// The platform's decoder (Node and browsers have it; this package is compiled without either's types).
declare class TextDecoder {
  decode(input: Uint8Array): string;
}
let decoder: TextDecoder | undefined;

/** The JSON text of a marked value as one string (its bytes decoded as UTF-8); undefined for anything else. */
export function textOfJson(value: unknown): string | undefined {
  const parts = jsonTextParts(value);
  if (parts === undefined) return undefined;
  return parts.map((p) => (typeof p === 'string' ? p : (decoder ??= new TextDecoder()).decode(p))).join('');
}
