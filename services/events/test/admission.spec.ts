import { ConfabError } from '@confab/errors';
import { Admission } from '../src/domain/admission';

/** Registers gathering initial state at once are limited; the rest wait their turn, or are refused before any work. */
describe('register admission', () => {
  afterEach(() => jest.useRealTimers());

  /** Work that starts when admitted and ends when the test says. */
  function works(admission: Admission, count: number) {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const results = Array.from({ length: count }, (_, i) =>
      admission.run(
        () =>
          new Promise<number>((resolve) => {
            started.push(i);
            finish[i] = () => resolve(i);
          }),
      ),
    );
    return { started, finish, results };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most the limit at once, the others in the order they came, each as soon as a place is free', async () => {
    const admission = new Admission(2, 60_000);
    const { started, finish, results } = works(admission, 5);
    await settle();
    expect(started).toEqual([0, 1]);
    expect(admission.queued).toBe(3);
    finish[1]!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    finish[0]!();
    finish[2]!();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish[3]!();
    finish[4]!();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(admission.queued).toBe(0);
  });

  it('frees the place of a register that failed', async () => {
    const admission = new Admission(1, 60_000);
    const failed = admission.run(() => Promise.reject(new Error('a provider failed')));
    const next = admission.run(async () => 'ran');
    await expect(failed).rejects.toThrow('a provider failed');
    expect(await next).toBe('ran');
  });

  it('refuses with a 503 and Retry-After a register that waited too long, which then never runs', async () => {
    jest.useFakeTimers();
    const admission = new Admission(1, 5000);
    const { started, finish, results } = works(admission, 2);
    const refused = results[1]!.catch((err: unknown) => err);
    jest.advanceTimersByTime(5000);
    const err = await refused;
    expect(err).toBeInstanceOf(ConfabError);
    expect(err).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
    expect(admission.queued).toBe(0);
    finish[0]!();
    expect(await results[0]).toBe(0);
    expect(started).toEqual([0]);
  });
});
