import { useEffect } from 'preact/hooks';

/** A larger view of an inline image (the server's `data-src-fullsize`), closed by Escape, a click or its button. */
export function Lightbox({ src, href, onClose }: { src: string; href: string; onClose: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label="Image" onClick={onClose}>
      <img src={src} alt="" onClick={(e) => e.stopPropagation()} />
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
