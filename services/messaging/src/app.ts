import { createHttpApp, type HttpApp } from '@confab/http';
import type { MessagingDeps } from './deps.js';
import { attachmentRoutes, mountFileDownloads, mountThumbnails } from './routes/attachments.routes.js';
import { mountExternalContent } from './routes/external_content.routes.js';
import { internalRoutes } from './routes/internal.routes.js';
import { invitationInternalRoutes } from './routes/invitations.internal.routes.js';
import { webhookInternalRoutes } from './routes/webhooks.internal.routes.js';
import { messageRoutes } from './routes/messages.routes.js';
import { streamRoutes } from './routes/streams.routes.js';
import { channelFolderRoutes } from './routes/channel_folders.routes.js';
import { realmContentRoutes } from './routes/realm_content.routes.js';
import { mountExportDownloads, realmExportRoutes } from './routes/realm_export.routes.js';
import { reactionRoutes } from './routes/reactions.routes.js';
import { subscriptionRoutes } from './routes/subscriptions.routes.js';
import { typingRoutes } from './routes/typing.routes.js';
import { userTopicRoutes } from './routes/user_topics.routes.js';
import { draftRoutes } from './routes/drafts.routes.js';
import { savedSnippetRoutes } from './routes/saved_snippets.routes.js';
import { scheduledMessageRoutes } from './routes/scheduled_messages.routes.js';

/** The messaging service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: MessagingDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: [
      ...subscriptionRoutes(deps),
      ...streamRoutes(deps),
      ...channelFolderRoutes(deps),
      ...realmContentRoutes(deps),
      ...realmExportRoutes(deps),
      ...messageRoutes(deps),
      ...reactionRoutes(deps),
      ...typingRoutes(deps),
      ...userTopicRoutes(deps),
      ...attachmentRoutes(deps),
      ...draftRoutes(deps),
      ...scheduledMessageRoutes(deps, deps.deliveries),
      ...savedSnippetRoutes(deps),
    ],
    before: (app) => {
      mountExportDownloads(app, deps);
      mountFileDownloads(app, deps);
      mountThumbnails(app, deps);
      mountExternalContent(app, deps);
    },
    internalRoutes: [...internalRoutes(deps), ...invitationInternalRoutes(deps), ...webhookInternalRoutes(deps)],
    causal: deps.causal,
    bodyLimits: { maxFieldBytes: 5 * 1024 * 1024, maxFileBytes: deps.config.uploads.maxFileBytes },
    readiness: async () => ({
      database: await deps.store.ping(),
      broker: deps.bus.isConnected(),
    }),
  });
}
