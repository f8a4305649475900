import type { ComponentChildren } from 'preact';

/**
 * A list of records as a table: "Loading…" until they arrive (`records` null), a sentence when there are none, else
 * one row per record under the column headings. The pages' lists (recent conversations, invitations, exports) share it.
 */
export function RecordTable<T>({
  records,
  empty,
  headings,
  class: className,
  row,
}: {
  records: readonly T[] | null;
  empty: string;
  headings: string[];
  class?: string;
  row: (record: T) => ComponentChildren;
}) {
  if (records === null) return <p class="loading">Loading…</p>;
  if (records.length === 0) return <p class="empty">{empty}</p>;
  return (
    <table class={className}>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th key={heading} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{records.map(row)}</tbody>
    </table>
  );
}
