/** The files on their way from the compose box: a progress bar each, or the server's refusal. */
export interface Upload {
  id: number;
  name: string;
  /** Sent so far, 0 to 1 (XHR upload progress). */
  progress: number;
  error?: string;
}

export function UploadList({ uploads, onDismiss }: { uploads: readonly Upload[]; onDismiss: (id: number) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul class="uploads" aria-label="Uploads">
      {uploads.map((u) => (
        <li key={u.id} class="upload" data-upload={u.name} data-progress={Math.round(u.progress * 100)}>
          <span>{u.name}</span>
          {u.error ? (
            <span role="alert" class="error">
              {u.error}
              <button type="button" class="dismiss" onClick={() => onDismiss(u.id)}>
                Dismiss
              </button>
            </span>
          ) : (
            <progress class="upload-progress" max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
          )}
        </li>
      ))}
    </ul>
  );
}
