import { useRef } from 'preact/hooks';

/** The compose box's tools, small and inline: attach files (a hidden file input behind a button), emoji, preview. */
export function ComposeTools({
  picking,
  onTogglePicker,
  onFiles,
  onPreview,
}: {
  picking: boolean;
  onTogglePicker: () => void;
  onFiles: (files: File[]) => void;
  onPreview: () => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div class="tools">
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
