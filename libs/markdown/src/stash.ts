// Placeholders are STX/ETX-delimited, and both characters are stripped from user input first.
const PLACEHOLDER_RE = /^\u0002stash:(\d+)\u0003$/;

export interface StashEntry {
  html: string;
  /** Block-level HTML replaces its paragraph; inline-level HTML (KaTeX) stays wrapped in `<p>`. */
  block: boolean;
}

/** Pre-rendered HTML that the fence preprocessor hands to the block parser as single placeholder lines. */
export class Stash {
  readonly entries: StashEntry[] = [];

  store(html: string, block: boolean): string {
    this.entries.push({ html, block });
    return `\u0002stash:${this.entries.length - 1}\u0003`;
  }

  /** The entry a line stands for, if the line is exactly a placeholder. */
  lookup(line: string): StashEntry | undefined {
    const match = PLACEHOLDER_RE.exec(line);
    return match === null ? undefined : this.entries[Number(match[1])];
  }
}

/** Removes the placeholder delimiters from user input so that no one can forge a placeholder. */
export function stripPlaceholderChars(text: string): string {
  return text.replace(/[\u0002\u0003]/g, '');
}
