import { unsupportedEvent, type Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';
import { arrMessage, isDownload, isUpgrade } from './arr-shared.js';

/**
 * Radarr (zerver/webhooks/radarr): movies grabbed, imported (and upgraded), renamed, added and deleted, their files
 * deleted, health checks and application updates; a movie's events in the topic of its title.
 */

const DELETE_REASONS: Record<string, string> = {
  missingFromDisk: 'because it is missing from disk',
  manual: 'manually',
  upgrade: 'because an upgraded version exists',
  noLinkedEpisodes: 'because it has no linked episodes',
  manualOverride: 'via manual override',
};

export const radarr: Integration = {
  name: 'radarr',
  webhookName: 'Radarr',
  eventTypes: [
    'ApplicationUpdate',
    'Test',
    'Rename',
    'Download',
    'Health',
    'Grab',
    'MovieDelete',
    'MovieFileDelete',
    'MovieAdded',
  ],
  handle(request) {
    const payload = request.json();
    const title = () => str(payload.movie.title);
    return arrMessage(
      'Radarr',
      payload,
      (eventType) => {
        if (eventType === 'ApplicationUpdate') {
          return `Radarr was updated from ${str(payload.previousVersion)} to ${str(payload.newVersion)}.`;
        }
        if (eventType === 'Health') return `${str(payload.message)}.`;
        if (eventType === 'Rename') return `The movie ${title()} has been renamed.`;
        if (isDownload(eventType, payload)) {
          if (!isUpgrade(payload, false)) return `The movie ${title()} has been imported.`;
          const newQuality = str(payload.movieFile.quality);
          const oldQuality = str(payload.deletedFiles[0].quality);
          return `The movie ${title()} has been upgraded from ${oldQuality} to ${newQuality}.`;
        }
        if (eventType === 'Grab') return `The movie ${title()} has been grabbed.`;
        if (eventType === 'MovieDelete') {
          if (typeof payload.deletedFiles !== 'boolean') throw new TypeError('deletedFiles is not a boolean');
          return `The movie ${title()} was deleted; its files were ${payload.deletedFiles ? 'also' : 'not'} deleted.`;
        }
        if (eventType === 'MovieFileDelete') {
          const quality = str(payload.movieFile.quality);
          const reason = DELETE_REASONS[str(payload.deleteReason)];
          if (reason === undefined) throw new TypeError('an unknown delete reason');
          return `A file with quality ${quality} for the movie ${title()} was deleted, ${reason}.`;
        }
        if (eventType === 'MovieAdded') return `The movie ${title()} was added.`;
        return unsupportedEvent(eventType);
      },
      (eventType) => {
        if (eventType === 'ApplicationUpdate') return 'Radarr - Application update';
        if (eventType === 'Health') return `Health ${str(payload.level)}`;
        return title();
      },
    );
  },
};
