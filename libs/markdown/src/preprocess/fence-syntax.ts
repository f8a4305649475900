/** A fence line: ``` or ~~~ (3+), then optionally a language (`{.py}` style allowed) and a header. */
export const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

export interface FenceLine {
  fence: string;
  lang: string | undefined;
  header: string | undefined;
}

export function parseFenceLine(line: string): FenceLine | undefined {
  const m = FENCE_RE.exec(line);
  return m === null ? undefined : { fence: m[1]!, lang: m[2], header: m[3] };
}
