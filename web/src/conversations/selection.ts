import { signal } from '@preact/signals';

/** The message the keyboard has selected (j/k move it, r replies to it), if any. */
export const selectedMessage = signal<number | null>(null);
