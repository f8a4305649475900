import type { ComponentChildren } from 'preact';
import { collapsed, toggleSection, type SectionName } from './state';

export function Unread({ count }: { count: number }) {
  return count > 0 ? (
    <span class="unread" aria-label={`${count} unread`}>
      {count}
    </span>
  ) : null;
}

/**
 * A sidebar section whose heading opens and collapses it (remembered across reloads). A collapsed section keeps
 * its unread count beside the heading, so nothing unread hides in it.
 */
export function Section({
  name,
  title,
  unread,
  children,
}: {
  name: SectionName;
  title: string;
  unread: number;
  children: ComponentChildren;
}) {
  const open = !collapsed.value.has(name);
  const id = `sidebar-${name}`;
  return (
    <div class="sidebar-section" data-section={name}>
      <h2>
        <button
          type="button"
          class="section-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => toggleSection(name)}
        >
          <span class="chevron" aria-hidden="true" />
          <span class="title">{title}</span>
          {!open && <Unread count={unread} />}
        </button>
      </h2>
      <div id={id} class="section-body" hidden={!open}>
        {open && children}
      </div>
    </div>
  );
}

/** A filter box of the sidebar: typing narrows the section's list, Esc clears it (and leaves the box when empty). */
export function FilterBox({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      type="search"
      id={id}
      class="sidebar-filter"
      placeholder={label}
      aria-label={label}
      autocomplete="off"
      spellcheck={false}
      value={value}
      onInput={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        if (e.currentTarget.value) onChange('');
        else e.currentTarget.blur();
      }}
    />
  );
}
