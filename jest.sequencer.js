// The order test files start in. `npm test` runs three files at a time, and the run ends when its longest file does:
// started last, a five-minute file leaves the other workers idle while it runs alone. Jest orders files by the
// durations it remembers from earlier runs, and a fresh clone (CI) has none, so it falls back to file size, which
// says nothing here (the hostile-input shards are three-line files that run for a minute or more). Files known to be long
// therefore get a rough duration of their own, and jest's sort starts them first, longest first (the
// longest-processing-time rule); the rest keep jest's own order.
const Sequencer = require('@jest/test-sequencer').default;

/** Rough seconds on this project's two-core machines, read off `npm test` runs' .jest-results.json (2026-11-28). */
const KNOWN_LONG = [
  [/tests\/e2e\/faults\/.*\.faults\.spec\.ts$/, 150],
  [/tests\/e2e\/web\.accessibility\.browser\.e2e\.spec\.ts$/, 120],
  [/tests\/e2e\/(web\.browser|push_email|events_replicas|invitations)\.e2e\.spec\.ts$/, 100],
  [/infra\/test\/architecture\.spec\.ts$/, 80],
  [/tests\/e2e\/hostile-input\.\d\.e2e\.spec\.ts$/, 60],
  [/\.browser\.e2e\.spec\.ts$/, 40],
];

function knownSeconds(path) {
  const hit = KNOWN_LONG.find(([pattern]) => pattern.test(path));
  return hit ? hit[1] : 0;
}

class LongestFirst extends Sequencer {
  /** Jest's remembered duration when it has one, else the known rough one; jest sorts by it, longest first. */
  time(test) {
    const remembered = super.time(test);
    if (remembered != null) return remembered;
    const seconds = knownSeconds(test.path);
    return seconds > 0 ? seconds * 1000 : undefined;
  }
}

module.exports = LongestFirst;
