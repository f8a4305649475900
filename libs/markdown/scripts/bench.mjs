// Renders/s for a typical ~200-character message. Build first (`pnpm build`), then `node scripts/bench.mjs`.
import { createRequire } from 'node:module';

const { renderMessage } = createRequire(import.meta.url)('../dist/index.js');
const context = {
  realmUrl: 'https://chat.example.com',
  users: [{ id: 1, fullName: 'Ada Lovelace' }],
  channels: [{ id: 2, name: 'backend' }],
};
const messages = {
  typical:
    'Hey @**Ada Lovelace**, I pushed the fix for the **login bug** to `main`, see ' +
    'https://github.com/example/repo/pull/123 and #**backend>deploys**. Does it work for you? :+1: 🎉',
  plain: 'Sounds good to me, I will have a look at it after lunch and report back here in this topic. '.repeat(2),
  math: 'The bound is $$\\sum_{i=1}^n i = \\frac{n(n+1)}{2}$$ as usual.',
};
for (const [name, content] of Object.entries(messages)) {
  for (let i = 0; i < 500; i++) renderMessage(content, context);
  const runs = 5000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) renderMessage(content, context);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${name} (${content.length} chars): ${Math.round(runs / seconds)} renders/s`);
}
