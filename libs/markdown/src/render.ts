import type { MarkdownIt, Token } from 'markdown-it';
import { collect } from './collect.js';
import { resolveContext, type ResolvedContext } from './context.js';
import { createEngine } from './engine.js';
import { newCollector, newPreviews, type ParseEnv } from './env.js';
import { processFences } from './preprocess/fences.js';
import { separateHangingLists } from './preprocess/lists.js';
import { normalizeLines } from './preprocess/normalize.js';
import { Stash } from './stash.js';
import type { MessageReferences, RenderContext, RenderResult } from './types.js';

let engine: MarkdownIt | undefined;

function getEngine(): MarkdownIt {
  engine ??= createEngine();
  return engine;
}

function parse(content: string, env: ParseEnv): Token[] {
  const lines = separateHangingLists(normalizeLines(content));
  const source = processFences(lines, env.stash, env.context.defaultCodeBlockLanguage).join('\n');
  return getEngine().parse(source, env);
}

/**
 * Finds the users, groups, channels, topics and emoji names a message refers to, without any
 * lookups: the caller resolves them and passes the results to `renderMessage`.
 */
export function extractReferences(content: string): MessageReferences {
  const env: ParseEnv = {
    mode: 'extract',
    context: resolveContext(),
    stash: new Stash(),
    refs: newCollector(),
    previews: newPreviews(),
  };
  parse(content, env);
  const { refs } = env;
  return {
    userNames: [...refs.userNames],
    userIds: [...refs.userIds],
    groupNames: [...refs.groupNames],
    channelNames: [...refs.channelNames],
    topics: [...refs.topics.values()],
    emojiNames: [...refs.emojiNames],
    hasWildcardMention: refs.hasWildcardMention,
  };
}

/** A render context indexed once, for rendering many messages against the same one (an organization's import). */
export type PreparedContext = ResolvedContext & { readonly prepared: true };

export function prepareContext(context: RenderContext = {}): PreparedContext {
  return { ...resolveContext(context), prepared: true };
}

/** Renders a message's Markdown to Zulip-compatible HTML, with the data stored alongside it. */
export function renderMessage(content: string, context: RenderContext | PreparedContext = {}): RenderResult {
  const resolved = 'prepared' in context ? context : resolveContext(context);
  const env: ParseEnv = {
    mode: 'render',
    context: resolved,
    stash: new Stash(),
    refs: newCollector(),
    previews: newPreviews(),
  };
  const md = getEngine();
  const tokens = parse(content, env);
  const collected = collect(tokens, resolved);
  const html = md.renderer.render(tokens, md.options, env).trim();
  return {
    html,
    ...collected,
    hasImage: env.previews.hasImage,
    linksForPreview: env.previews.linksForPreview,
    isMeMessage: content.startsWith('/me '),
  };
}

/** Just the HTML, e.g. for `POST /messages/render`. */
export function renderMarkdown(content: string, context: RenderContext = {}): string {
  return renderMessage(content, context).html;
}
