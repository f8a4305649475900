import { createHash } from 'node:crypto';
import { createLogger } from '@confab/logging';
import { confirmEmailChange, inspectEmailChangeLink, type EmailChangeContext } from '../src/domain/email-change';
import type { Database } from '../src/domain/store';
import type { EmailChange } from '../src/domain/types';

const KEY = 'abcdefghijklmnopqrstuvwx';
const hash = (key: string) => createHash('sha256').update(key).digest('hex');

function context(request: EmailChange | null): { ctx: EmailChangeContext; transactions: number[] } {
  const transactions: number[] = [];
  const db = {
    store: { emailChanges: { byKeyHash: (h: string) => Promise.resolve(h === hash(KEY) ? request : null) } },
    write: () => {
      transactions.push(1);
      return Promise.reject(new Error('no change expected'));
    },
  } as unknown as Database;
  const ctx: EmailChangeContext = {
    db,
    emailChangeLimiter: { retryAfter: () => Promise.resolve(0), recordFailure: () => Promise.resolve() },
    mailer: { enabled: true, send: () => Promise.resolve() },
    logger: createLogger({ name: 'test', level: 'silent' }),
    config: { externalUrl: 'http://chat.test', mail: { linkValiditySeconds: 86_400 } },
  };
  return { ctx, transactions };
}

const request = (over: Partial<EmailChange>): EmailChange => ({
  id: 1,
  userId: 5,
  oldEmail: 'old@example.test',
  newEmail: 'new@example.test',
  status: 0,
  expiresAt: new Date(Date.now() + 60_000),
  ...over,
});

describe('email-change links', () => {
  it('tells unknown, used and expired links apart, and changes nothing for them', async () => {
    const cases: [EmailChange | null, string][] = [
      [null, 'not_found'],
      [request({ status: 1 }), 'used'],
      [request({ status: 2 }), 'used'],
      [request({ expiresAt: new Date(Date.now() - 1) }), 'expired'],
    ];
    for (const [found, problem] of cases) {
      const { ctx, transactions } = context(found);
      expect(await inspectEmailChangeLink(ctx, KEY)).toBe(problem);
      expect(await confirmEmailChange(ctx, KEY, 'req')).toEqual({ kind: 'link', problem });
      expect(transactions).toEqual([]);
    }
  });

  it('describes a live link', async () => {
    const live = request({});
    expect(await inspectEmailChangeLink(context(live).ctx, KEY)).toEqual(live);
  });
});
