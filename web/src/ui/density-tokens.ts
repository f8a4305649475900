/** Zulip's information density as the message view's CSS tokens (ui/density.ts applies them). */

/** Zulip's bounds of the two settings (information_density.ts): what the settings page offers. */
export const FONT_SIZES = [12, 13, 14, 15, 16, 17, 18, 19, 20] as const;
export const LINE_HEIGHTS = [
  [122, 'Compact'],
  [130, 'Snug'],
  [140, 'Normal'],
  [150, 'Relaxed'],
  [158, 'Spacious'],
] as const;

/** The tokens for a font size and line height; values out of range fall back to Zulip's defaults (16 px, 140 %). */
export function densityTokens(
  fontSizePx: unknown,
  lineHeightPercent: unknown,
): { fontSize: string; lineHeight: string } {
  const size = typeof fontSizePx === 'number' && fontSizePx >= 8 && fontSizePx <= 40 ? fontSizePx : 16;
  const height =
    typeof lineHeightPercent === 'number' && lineHeightPercent >= 100 && lineHeightPercent <= 250
      ? lineHeightPercent
      : 140;
  return { fontSize: `${size}px`, lineHeight: String(height / 100) };
}
