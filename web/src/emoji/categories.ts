/**
 * The picker's categories. The server's emoji data has codes and names only, so a Unicode emoji's category is found
 * from where its first code point lies in Unicode's blocks (ranges checked in order; the rest are symbols).
 */
export const CATEGORIES = [
  'Custom',
  'Smileys & people',
  'Animals & nature',
  'Food & drink',
  'Activities',
  'Travel & places',
  'Objects',
  'Symbols',
  'Flags',
] as const;
export type Category = (typeof CATEGORIES)[number];

const RANGES: [number, number, Category][] = [
  [0x1f1e6, 0x1f1ff, 'Flags'],
  [0x1f3f3, 0x1f3f4, 'Flags'],
  [0x1f6a9, 0x1f6a9, 'Flags'],
  [0x1f3c1, 0x1f3c1, 'Flags'],
  [0x1f38c, 0x1f38c, 'Flags'],
  [0x1f600, 0x1f64f, 'Smileys & people'],
  [0x1f910, 0x1f92f, 'Smileys & people'],
  [0x1f930, 0x1f939, 'Smileys & people'],
  [0x1f970, 0x1f97f, 'Smileys & people'],
  [0x1f9b0, 0x1f9b9, 'Smileys & people'],
  [0x1f9cd, 0x1f9ff, 'Smileys & people'],
  [0x1fae0, 0x1faff, 'Smileys & people'],
  [0x1f440, 0x1f450, 'Smileys & people'],
  [0x1f464, 0x1f48f, 'Smileys & people'],
  [0x1f4aa, 0x1f4aa, 'Smileys & people'],
  [0x1f574, 0x1f57a, 'Smileys & people'],
  [0x1f590, 0x1f596, 'Smileys & people'],
  [0x261d, 0x261d, 'Smileys & people'],
  [0x263a, 0x263a, 'Smileys & people'],
  [0x270a, 0x270d, 'Smileys & people'],
  [0x1f400, 0x1f43f, 'Animals & nature'],
  [0x1f330, 0x1f344, 'Animals & nature'],
  [0x1f980, 0x1f9ae, 'Animals & nature'],
  [0x1fab0, 0x1fabf, 'Animals & nature'],
  [0x1f300, 0x1f320, 'Animals & nature'],
  [0x1f490, 0x1f490, 'Animals & nature'],
  [0x1f4ae, 0x1f4ae, 'Animals & nature'],
  [0x1f54a, 0x1f54a, 'Animals & nature'],
  [0x1f577, 0x1f578, 'Animals & nature'],
  [0x2600, 0x2604, 'Animals & nature'],
  [0x26c4, 0x26c8, 'Animals & nature'],
  [0x2744, 0x2744, 'Animals & nature'],
  [0x1f345, 0x1f37f, 'Food & drink'],
  [0x1f950, 0x1f96f, 'Food & drink'],
  [0x1f9c0, 0x1f9cb, 'Food & drink'],
  [0x1fad0, 0x1fadf, 'Food & drink'],
  [0x2615, 0x2615, 'Food & drink'],
  [0x1f380, 0x1f393, 'Activities'],
  [0x1f3a0, 0x1f3d3, 'Activities'],
  [0x1f3f8, 0x1f3f9, 'Activities'],
  [0x1f93a, 0x1f94f, 'Activities'],
  [0x1f9e9, 0x1f9e9, 'Activities'],
  [0x26bd, 0x26be, 'Activities'],
  [0x26f3, 0x26f3, 'Activities'],
  [0x26f8, 0x26f8, 'Activities'],
  [0x1f680, 0x1f6ff, 'Travel & places'],
  [0x1f3d4, 0x1f3f0, 'Travel & places'],
  [0x1f5fa, 0x1f5ff, 'Travel & places'],
  [0x1f30d, 0x1f310, 'Travel & places'],
  [0x26e9, 0x26fd, 'Travel & places'],
  [0x2708, 0x2708, 'Travel & places'],
  [0x1f4b0, 0x1f4ff, 'Objects'],
  [0x1f56f, 0x1f5f9, 'Objects'],
  [0x1fa70, 0x1faaf, 'Objects'],
  [0x231a, 0x231b, 'Objects'],
  [0x2328, 0x2328, 'Objects'],
  [0x23f0, 0x23f3, 'Objects'],
  [0x260e, 0x260e, 'Objects'],
  [0x2702, 0x2702, 'Objects'],
  [0x2709, 0x2709, 'Objects'],
  [0x270f, 0x2712, 'Objects'],
];

export function categoryOf(code: string, type: 'unicode_emoji' | 'realm_emoji'): Category {
  if (type !== 'unicode_emoji') return 'Custom';
  const first = parseInt(code.split('-')[0], 16);
  for (const [from, to, category] of RANGES) if (first >= from && first <= to) return category;
  return 'Symbols';
}
