import { useLayoutEffect } from 'preact/hooks';

/** The name a screen reader says for an image: the link's title (the file name), else the last part of its address. */
export function imageName(link: Element): string {
  const title = link.getAttribute('title')?.trim();
  if (title) return title;
  const path = (link.getAttribute('href') ?? '').split(/[?#]/)[0];
  const last = path.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || 'Image';
  } catch {
    return last || 'Image';
  }
}

/**
 * A larger view of an inline image (the server's `data-src-fullsize`), closed by Escape, a click or its button; the
 * image and the dialog are named by the file's name.
 */
export function Lightbox({
  src,
  href,
  name,
  onClose,
}: {
  src: string;
  href: string;
  name: string;
  onClose: () => void;
}) {
  // Listening from the render itself (not after the next paint), so an Esc pressed as the image shows closes it.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label={name} onClick={onClose}>
      <img src={src} alt={name} onClick={(e) => e.stopPropagation()} />
      <div class="lightbox-actions">
        <a href={href} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
          Open original
        </a>
        <button type="button" class="lightbox-close" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
