import { unsupportedEvent, type Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';
import { arrMessage, isDownload, isUpgrade } from './arr-shared.js';

/**
 * Sonarr (zerver/webhooks/sonarr): episodes grabbed, imported (and upgraded), renamed and deleted, series deleted
 * and health checks; a series' events in the topic of its title.
 */

export const sonarr: Integration = {
  name: 'sonarr',
  webhookName: 'Sonarr',
  eventTypes: ['Grab', 'EpisodeFileDelete', 'Test', 'Download', 'SeriesDelete', 'Health', 'Rename'],
  handle(request) {
    const payload = request.json();
    const series = () => str(payload.series.title);
    /** "Grey's Anatomy - 17x9 - In My Life": the series and its first episode. */
    const episode = () => {
      const first = payload.episodes[0];
      return `${series()} - ${int(first.seasonNumber)}x${int(first.episodeNumber)} - ${str(first.title)}`;
    };
    return arrMessage(
      'Sonarr',
      payload,
      (eventType) => {
        if (eventType === 'Health') return `${str(payload.message)}.`;
        if (eventType === 'Rename') return `${series()} episodes have been renamed.`;
        if (eventType === 'SeriesDelete') return `${series()} has been deleted.`;
        if (isDownload(eventType, payload)) {
          if (!isUpgrade(payload, true)) return `${episode()} has been imported.`;
          const text = episode();
          const newQuality = str(payload.episodeFile.quality);
          const oldQuality = str(payload.deletedFiles[0].quality);
          return `${text} has been upgraded from ${oldQuality} to ${newQuality}.`;
        }
        if (eventType === 'Grab') return `${episode()} has been grabbed.`;
        if (eventType === 'EpisodeFileDelete' && 'deleteReason' in payload) {
          return str(payload.deleteReason) === 'upgrade'
            ? `${episode()} has been deleted due to quality upgrade.`
            : `${episode()} has been deleted.`;
        }
        return unsupportedEvent(eventType);
      },
      (eventType) => (eventType === 'Health' ? `Health ${str(payload.level)}` : series()),
    );
  },
};
