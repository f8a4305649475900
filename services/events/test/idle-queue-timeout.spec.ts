import { MOBILE_IDLE_QUEUE_SECONDS, parseIdleQueueTimeout } from '../src/routes/events.params';

describe('idle_queue_timeout', () => {
  it('takes seconds or "mobile", JSON-encoded as the apps send it or plain', () => {
    expect(parseIdleQueueTimeout(undefined)).toBeUndefined();
    expect(parseIdleQueueTimeout('"mobile"')).toBe(MOBILE_IDLE_QUEUE_SECONDS);
    expect(parseIdleQueueTimeout('mobile')).toBe(MOBILE_IDLE_QUEUE_SECONDS);
    expect(parseIdleQueueTimeout('3600')).toBe(3600);
    expect(parseIdleQueueTimeout(String(30 * 24 * 3600))).toBe(7 * 24 * 3600);
  });

  it('refuses anything else with a clear error', () => {
    for (const raw of ['desktop', '0', '-5', '1.5', 'null', '[]'])
      expect(() => parseIdleQueueTimeout(raw)).toThrow('idle_queue_timeout is not an integer');
  });
});
