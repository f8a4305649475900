import { ConfigError, redisSettings, sentinelSettings } from '@confab/config';

describe('REDIS_URL forms', () => {
  it('reads a sentinel URL: the sentinels, the master name, the database and credentials', () => {
    expect(redisSettings('redis+sentinel://10.0.0.1:26379,10.0.0.2:26379,[::1]:26380/confab', 'p')).toEqual({
      url: 'redis+sentinel://10.0.0.1:26379,10.0.0.2:26379,[::1]:26380/confab',
      prefix: 'p',
      cluster: false,
      sentinel: {
        name: 'confab',
        sentinels: [
          { host: '10.0.0.1', port: 26379 },
          { host: '10.0.0.2', port: 26379 },
          { host: '::1', port: 26380 },
        ],
        db: 0,
        tls: false,
      },
    });
    expect(sentinelSettings('rediss+sentinel://:s%40cret@rfs-redis.data.svc/mymaster/2')).toEqual({
      name: 'mymaster',
      sentinels: [{ host: 'rfs-redis.data.svc', port: 26379 }],
      db: 2,
      password: 's@cret',
      tls: true,
    });
  });

  it('keeps the server and cluster forms, and refuses a sentinel URL without a master name', () => {
    expect(redisSettings('redis://127.0.0.1:6379', 'p')).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'p',
      cluster: false,
    });
    expect(redisSettings('redis+cluster://10.0.0.1:7000', 'p')).toEqual({
      url: 'redis://10.0.0.1:7000',
      prefix: 'p',
      cluster: true,
    });
    expect(() => sentinelSettings('redis+sentinel://10.0.0.1:26379')).toThrow(ConfigError);
  });
});
