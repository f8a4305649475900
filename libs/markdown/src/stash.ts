// Placeholders are STX/ETX-delimited, and both characters are stripped from user input first.
const OPEN = '\u0002stash:';
const CLOSE = '\u0003';

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
    return `${OPEN}${this.entries.length - 1}${CLOSE}`;
  }

  /** The entry a line stands for, if the line is exactly a placeholder. */
  lookup(line: string): StashEntry | undefined {
    if (!line.startsWith(OPEN) || !line.endsWith(CLOSE)) return undefined;
    const index = line.slice(OPEN.length, -CLOSE.length);
    return /^\d+$/.test(index) ? this.entries[Number(index)] : undefined;
  }
}

/** Removes the placeholder delimiters from user input so that no one can forge a placeholder. */
export function stripPlaceholderChars(text: string): string {
  return text.replaceAll('\u0002', '').replaceAll('\u0003', '');
}
