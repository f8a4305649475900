import type { ResolvedContext } from './context.js';
import type { Stash } from './stash.js';

/** Names collected while parsing in extraction mode. */
export interface ReferenceCollector {
  userNames: Set<string>;
  userIds: Set<number>;
  groupNames: Set<string>;
  channelNames: Set<string>;
  topics: Map<string, { channel: string; topic: string }>;
  emojiNames: Set<string>;
  hasWildcardMention: boolean;
}

/** State shared by all rules during one parse (markdown-it's `env`; a type alias so it fits `Env`). */
export type ParseEnv = {
  /** `extract` only records names; `render` resolves them against the context. */
  mode: 'render' | 'extract';
  context: ResolvedContext;
  stash: Stash;
  refs: ReferenceCollector;
  /** What the inline previews found (core/inline-images.ts). */
  previews: { hasImage: boolean; linksForPreview: string[] };
};

export function newPreviews(): ParseEnv['previews'] {
  return { hasImage: false, linksForPreview: [] };
}

export function newCollector(): ReferenceCollector {
  return {
    userNames: new Set(),
    userIds: new Set(),
    groupNames: new Set(),
    channelNames: new Set(),
    topics: new Map(),
    emojiNames: new Set(),
    hasWildcardMention: false,
  };
}

/** markdown-it types `env` loosely; every parse in this library passes a `ParseEnv`. */
export function parseEnv(env: unknown): ParseEnv {
  return env as ParseEnv;
}
