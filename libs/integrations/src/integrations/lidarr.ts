import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { pyStr } from '../toolkit/python.js';
import { str } from '../toolkit/wild.js';
import { arrMessage, isDownload, isUpgrade } from './arr-shared.js';

/**
 * Lidarr (zerver/webhooks/lidarr): albums grabbed, tracks imported (and upgraded, the first 20 listed), renamed and
 * retagged, in the topic of the artist's name.
 */

const TRACKS_LIMIT = 20;

function tracksList(tracks: Json): string {
  const titles = (tracks as Json[]).map((track) => str(track.title));
  let text = titles
    .slice(0, TRACKS_LIMIT)
    .map((title) => `* ${pyStr(title)}\n`)
    .join('');
  if (titles.length > TRACKS_LIMIT) text += `[and ${titles.length - TRACKS_LIMIT} more tracks(s)]`;
  return text.trimEnd();
}

export const lidarr: Integration = {
  name: 'lidarr',
  webhookName: 'Lidarr',
  eventTypes: ['Test', 'Grab', 'Rename', 'Retag', 'Download'],
  handle(request) {
    const payload = request.json();
    const artist = () => str(payload.artist.name);
    return arrMessage(
      'Lidarr',
      payload,
      (eventType) => {
        if (eventType === 'Grab') return `The album ${str(payload.albums[0].title)} by ${artist()} has been grabbed.`;
        if (eventType === 'Rename') return `The artist ${artist()} has had its tracks renamed.`;
        if (eventType === 'Retag') return `The artist ${artist()} has had its tracks retagged.`;
        if (isDownload(eventType, payload)) {
          const upgrade = isUpgrade(payload, true);
          const tracks = tracksList(payload.tracks);
          const due = upgrade ? ' due to upgrade' : '';
          return `The following tracks by ${artist()} have been imported${due}:\n${tracks}`;
        }
        return unsupportedEvent(eventType);
      },
      () => artist(),
    );
  },
};
