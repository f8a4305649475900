import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/**
 * The message field grows with its text (up to its CSS max-height, then it scrolls). Chromium sizes it by CSS alone
 * (`field-sizing: content`, compose.css); elsewhere its height follows its content here, after each change.
 */
export function useGrowingField(ref: RefObject<HTMLTextAreaElement>, value: string): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || (typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content'))) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [value]);
}
