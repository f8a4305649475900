import { useRef } from 'preact/hooks';
import type { Format } from './format';

/** Zulip's formatting buttons: what each shows, its name, and its shortcut if it has one. */
const FORMATS: { format: Format; glyph: string; label: string; key?: string }[] = [
  { format: 'bold', glyph: 'B', label: 'Bold', key: 'Ctrl+B' },
  { format: 'italic', glyph: 'I', label: 'Italic', key: 'Ctrl+I' },
  { format: 'link', glyph: '🔗', label: 'Link', key: 'Ctrl+Shift+L' },
  { format: 'code', glyph: '</>', label: 'Code' },
  { format: 'quote', glyph: '❝', label: 'Quote' },
  { format: 'bulleted', glyph: '•≡', label: 'Bulleted list' },
  { format: 'numbered', glyph: '1≡', label: 'Numbered list' },
];

/**
 * The formatting buttons: each applies its Markdown to the message field's selection (compose/format.ts). A press
 * with the mouse leaves the focus (and the selection) in the field.
 */
function FormatButtons({ onFormat }: { onFormat: (format: Format) => void }) {
  return (
    <div class="format-buttons" role="group" aria-label="Formatting">
      {FORMATS.map((f) => (
        <button
          key={f.format}
          type="button"
          class={`tool format-${f.format}`}
          title={f.key ? `${f.label} (${f.key})` : f.label}
          aria-keyshortcuts={f.key?.replace('Ctrl', 'Control')}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onFormat(f.format)}
        >
          <span aria-hidden="true">{f.glyph}</span>
          <span class="visually-hidden">{f.label}</span>
        </button>
      ))}
    </div>
  );
}

/**
 * The compose box's tools, small and inline: formatting, attach files (a hidden file input behind a button), emoji,
 * preview.
 */
export function ComposeTools({
  picking,
  onTogglePicker,
  onFiles,
  onPreview,
  onFormat,
}: {
  picking: boolean;
  onTogglePicker: () => void;
  onFiles: (files: File[]) => void;
  onPreview: () => void;
  onFormat: (format: Format) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div class="tools">
      <FormatButtons onFormat={onFormat} />
      <button id="compose-attach" type="button" class="tool" onClick={() => fileInput.current?.click()}>
        Attach files
      </button>
      <input
        ref={fileInput}
        id="compose-file"
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          onFiles(files);
        }}
      />
      <button id="compose-emoji" type="button" class="tool" aria-expanded={picking} onClick={onTogglePicker}>
        Emoji
      </button>
      <button id="compose-preview-button" type="button" class="tool" onClick={onPreview}>
        Preview
      </button>
    </div>
  );
}
