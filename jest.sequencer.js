// The order test files start in. `npm test` runs three files at a time, and the run ends when its longest file does:
// started last, a five-minute file leaves the other workers idle while it runs alone. Jest orders files by the
// durations it remembers from earlier runs, and a fresh clone (CI) has none, so it falls back to file size, which
// says nothing here (the hostile-input shards are three-line files that run for a minute or more). Files known to be
// long therefore get a rough duration of their own and start first, longest first (the longest-processing-time rule).
const Sequencer = require('@jest/test-sequencer').default;

/** Rough seconds on this project's two-core machines, read off `npm test` runs' .jest-results.json (2026-11-28). */
const KNOWN_LONG = [
  [/tests\/e2e\/faults\/.*\.faults\.spec\.ts$/, 120],
  [/tests\/e2e\/(push_email|events_replicas)\.e2e\.spec\.ts$/, 100],
  [/infra\/test\/architecture\.spec\.ts$/, 85],
  [/tests\/e2e\/(web\.browser|invitations)\.e2e\.spec\.ts$/, 80],
  [/tests\/e2e\/(hostile-input\.\d|web\.accessibility\.browser)\.e2e\.spec\.ts$/, 60],
  [/\.browser\.e2e\.spec\.ts$/, 30],
];

function knownSeconds(path) {
  const hit = KNOWN_LONG.find(([pattern]) => pattern.test(path));
  return hit ? hit[1] : 0;
}

class LongestFirst extends Sequencer {
  /**
   * Failed files first (as jest does), then the files whose duration is known, longest first: jest's remembered one,
   * else the rough one above. Then the rest by size. (Jest's own sort starts files it has no time for first, which
   * on a fresh clone would start the known-long files last.)
   */
  sort(tests) {
    const weight = new Map(tests.map((t) => [t, super.time(t) ?? (knownSeconds(t.path) * 1000 || undefined)]));
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      if (failed !== 0) return failed;
      const [wa, wb] = [weight.get(a), weight.get(b)];
      if ((wa === undefined) !== (wb === undefined)) return wa === undefined ? 1 : -1;
      if (wa !== undefined && wb !== undefined) return wb - wa;
      return size(b) - size(a);
    });
  }
}

module.exports = LongestFirst;
