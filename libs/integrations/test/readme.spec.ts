import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTEGRATIONS } from '../src/index.js';

// The README's "Integrations" section lists the integrations written so far; a module added or removed without it
// would leave the README untrue.
describe("the README's list of integrations", () => {
  it('names exactly the integrations of the registry', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Integrations\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Integrations\n') + 1),
    );
    const list = /Written so far[^\n]*\n(?:[^\n]+\n)*\n((?:- [^\n]+\n(?: {2}[^\n]+\n)*)+)/.exec(section);
    expect(list).not.toBeNull();
    const named = [...list![1]!.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]);
    expect([...named].sort()).toEqual([...INTEGRATIONS.keys()].sort());
  });
});
