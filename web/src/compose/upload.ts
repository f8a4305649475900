/**
 * Uploading a file (POST /json/user_uploads, multipart) with progress: XMLHttpRequest, because fetch reports no upload
 * progress. Answers Zulip's `{ url, filename }`; the Markdown link that goes into the message is made here too.
 */
import { ApiError, csrfToken } from '../lib/api';

export interface Uploaded {
  url: string;
  filename: string;
}

export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // A proxy's error page: the status says enough.
      }
      if (xhr.status === 200 && body.result === 'success') {
        onProgress(1);
        const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
        resolve({ url: text(body.url) ?? text(body.uri) ?? '', filename: text(body.filename) ?? file.name });
      } else
        reject(
          new ApiError(
            xhr.status,
            typeof body.code === 'string' ? body.code : 'BAD_REQUEST',
            typeof body.msg === 'string' ? body.msg : `Upload failed (${xhr.status})`,
          ),
        );
    };
    xhr.onerror = () => reject(new Error('Upload failed: no connection'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Zulip's link for an upload: `[name](url)`, with brackets in the name escaped. */
export function uploadLink(uploaded: Uploaded): string {
  return `[${uploaded.filename.replace(/([[\]\\])/g, '\\$1')}](${uploaded.url})`;
}
