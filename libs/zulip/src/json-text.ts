/**
 * A part of an answer already written as JSON text (a list of thousands of people, kept serialized between
 * requests): the HTTP layer writes it into the answer as it is, instead of serializing the value again.
 */
const JSON_TEXT = Symbol.for('confab.jsonText');

export interface JsonText {
  readonly [JSON_TEXT]: string;
}

/** Marks `text` (valid JSON, which the caller guarantees) as a value to be written as it is. */
export function jsonText(text: string): JsonText {
  return { [JSON_TEXT]: text };
}

/** The JSON text of a marked value; undefined for anything else. */
export function textOfJson(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && JSON_TEXT in value
    ? (value as JsonText)[JSON_TEXT]
    : undefined;
}
