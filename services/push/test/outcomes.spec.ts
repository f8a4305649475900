import { ConfabError } from '@confab/errors';
import { throwUnlessSent } from '../src/domain/test_notifications';
import type { TestFailure } from '../src/domain/types';
import { classifyStatus } from '../src/relay/protocol';

describe('throwUnlessSent', () => {
  it("maps each job outcome to Zulip's status, code and text", () => {
    expect(() => throwUnlessSent({ result: 'sent', devices: 2 })).not.toThrow();
    const cases: [TestFailure, number, string][] = [
      ['NO_ACTIVE_PUSH_DEVICE', 400, 'No active registered push device'],
      [
        'ADMIN_ACTION_REQUIRED',
        403,
        'Push notification configuration issue on server, contact the server administrator or retry later.',
      ],
      ['FAILED_TO_CONNECT_BOUNCER', 502, 'Network error while connecting to Zulip push notification service.'],
      [
        'INTERNAL_SERVER_ERROR_ON_BOUNCER',
        502,
        'Internal server error on Zulip push notification service, retry later.',
      ],
    ];
    for (const [result, status, msg] of cases) {
      try {
        throwUnlessSent({ result });
        throw new Error('expected an error');
      } catch (err) {
        expect(err).toBeInstanceOf(ConfabError);
        expect({
          status: (err as ConfabError).status,
          code: (err as ConfabError).code,
          msg: (err as ConfabError).message,
        }).toEqual({ status, code: result, msg });
      }
    }
  });
});

describe('classifyStatus', () => {
  it('sorts relay answers as PROTOCOL.md says', () => {
    expect([200, 201, 204].map(classifyStatus)).toEqual([null, null, null]);
    expect([401, 402, 403, 404, 409].map(classifyStatus)).toEqual(['admin', 'admin', 'admin', 'admin', 'admin']);
    expect(classifyStatus(400)).toBe('rejected');
    expect([408, 429].map(classifyStatus)).toEqual(['network', 'network']);
    expect([500, 502, 503].map(classifyStatus)).toEqual(['server', 'server', 'server']);
  });
});
