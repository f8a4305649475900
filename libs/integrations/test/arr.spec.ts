import { lidarr } from '../src/integrations/lidarr.js';
import { radarr } from '../src/integrations/radarr.js';
import { sonarr } from '../src/integrations/sonarr.js';
import { runWebhook } from '../src/index.js';
import { answered, only } from './ops-support.js';
import { jsonRequest } from './support.js';

describe('radarr', () => {
  const run = (body: unknown) => only(runWebhook(radarr, jsonRequest(body)));
  const movie = { title: 'Heat' };

  it('posts movie events in the topic of the title', () => {
    expect(run({ eventType: 'Grab', movie })).toEqual({ topic: 'Heat', content: 'The movie Heat has been grabbed.' });
    expect(
      run({
        eventType: 'Download',
        movie,
        isUpgrade: true,
        movieFile: { quality: 'Bluray-1080p' },
        deletedFiles: [{ quality: 'DVD' }],
      }).content,
    ).toBe('The movie Heat has been upgraded from DVD to Bluray-1080p.');
    expect(run({ eventType: 'MovieDelete', movie, deletedFiles: false }).content).toBe(
      'The movie Heat was deleted; its files were not deleted.',
    );
    expect(
      run({ eventType: 'MovieFileDelete', movie, movieFile: { quality: 'HDTV' }, deleteReason: 'upgrade' }).content,
    ).toBe('A file with quality HDTV for the movie Heat was deleted, because an upgraded version exists.');
  });

  it('posts the test, health checks and application updates in topics of their own', () => {
    expect(run({ eventType: 'Test', movie })).toEqual({
      topic: 'Radarr - Test',
      content: 'Radarr webhook has been successfully configured.',
    });
    expect(run({ eventType: 'Health', level: 'warning', message: 'Disk low' })).toEqual({
      topic: 'Health warning',
      content: 'Disk low.',
    });
    expect(run({ eventType: 'ApplicationUpdate', previousVersion: '1.0', newVersion: '1.1' })).toEqual({
      topic: 'Radarr - Application update',
      content: 'Radarr was updated from 1.0 to 1.1.',
    });
  });

  it('answers unsupported events', () => {
    expect(answered(runWebhook(radarr, jsonRequest({ eventType: 'ManualInteractionRequired', movie }))).msg).toBe(
      "The 'ManualInteractionRequired' event isn't currently supported by the Radarr webhook; ignoring",
    );
  });
});

describe('sonarr', () => {
  const run = (body: unknown) => only(runWebhook(sonarr, jsonRequest(body)));
  const series = { title: 'Dark' };
  const episodes = [{ seasonNumber: 2, episodeNumber: 5, title: 'Lost and Found' }];

  it('posts episode events as "<series> - <season>x<episode> - <title>"', () => {
    expect(run({ eventType: 'Download', series, episodes, isUpgrade: false })).toEqual({
      topic: 'Dark',
      content: 'Dark - 2x5 - Lost and Found has been imported.',
    });
    expect(run({ eventType: 'EpisodeFileDelete', series, episodes, deleteReason: 'upgrade' }).content).toBe(
      'Dark - 2x5 - Lost and Found has been deleted due to quality upgrade.',
    );
    expect(run({ eventType: 'SeriesDelete', series }).content).toBe('Dark has been deleted.');
  });
});

describe('lidarr', () => {
  it('lists at most 20 imported tracks in the topic of the artist', () => {
    const tracks = Array.from({ length: 22 }, (_, i) => ({ title: `Song ${i + 1}` }));
    const { topic, content } = only(
      runWebhook(lidarr, jsonRequest({ eventType: 'Download', artist: { name: 'Nova' }, tracks, isUpgrade: true })),
    );
    expect(topic).toBe('Nova');
    expect(content).toBe(
      'The following tracks by Nova have been imported due to upgrade:\n' +
        tracks
          .slice(0, 20)
          .map((t) => `* ${t.title}`)
          .join('\n') +
        '\n[and 2 more tracks(s)]',
    );
  });

  it('posts grabs and retags', () => {
    const artist = { name: 'Nova' };
    expect(
      only(runWebhook(lidarr, jsonRequest({ eventType: 'Grab', artist, albums: [{ title: 'Blue' }] }))).content,
    ).toBe('The album Blue by Nova has been grabbed.');
    expect(only(runWebhook(lidarr, jsonRequest({ eventType: 'Retag', artist }))).content).toBe(
      'The artist Nova has had its tracks retagged.',
    );
  });
});
