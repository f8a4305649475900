import { ConfabError, invalid, isUnavailable, serviceUnavailable } from '@confab/errors';

describe('isUnavailable', () => {
  it('recognises a dependency outage however the driver wrapped it', () => {
    // Prisma's known request error of a raw query whose connection the server ended (as seen in groups' log).
    const prismaRaw = Object.assign(new Error('Raw query failed. Code: `57P01`.'), {
      code: 'P2010',
      meta: {
        driverAdapterError: {
          name: 'DriverAdapterError',
          cause: { kind: 'postgres', code: '57P01', originalCode: '57P01', message: 'terminating connection' },
        },
      },
    });
    const adapterKind = Object.assign(new Error('x'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } },
    });
    const pg = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('outer', { cause: pg });
    const standby = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });
    const ioredis = Object.assign(new Error('Reached the max retries per request limit'), {
      name: 'MaxRetriesPerRequestError',
    });
    const offline = new Error("Stream isn't writeable and enableOfflineQueue options is false");
    for (const err of [prismaRaw, adapterKind, pg, wrapped, standby, ioredis, offline, serviceUnavailable()])
      expect(isUnavailable(err)).toBe(true);
  });

  it('leaves the caller’s own errors and bugs alone', () => {
    expect(isUnavailable(invalid('Invalid stream ID'))).toBe(false);
    expect(isUnavailable(new ConfabError('Not found', { status: 404 }))).toBe(false);
    expect(isUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isUnavailable(undefined)).toBe(false);
    const cyclic: { cause?: unknown; message: string } = { message: 'loop' };
    cyclic.cause = cyclic;
    expect(isUnavailable(cyclic)).toBe(false);
  });
});
