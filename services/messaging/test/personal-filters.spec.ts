import { alertedUsers } from '../src/domain/personal-filters';

describe('alert words', () => {
  const words = new Map([
    [1, ['deploy', 'on call']],
    [2, ['ci']],
    [3, ['c++']],
  ]);

  it('matches whole words case-insensitively, with the punctuation Zulip allows around them', () => {
    expect(alertedUsers('We DEPLOY today', words)).toEqual([1]);
    expect(alertedUsers('(deploy)', words)).toEqual([1]);
    expect(alertedUsers('who is on call?', words)).toEqual([1]);
    expect(alertedUsers('"ci", then **deploy**!', words)).toEqual([1, 2]);
    expect(alertedUsers('I like c++.', words)).toEqual([3]);
    expect(alertedUsers('ci', words)).toEqual([2]);
  });

  it('does not match inside other words or next to other characters', () => {
    expect(alertedUsers('redeployment', words)).toEqual([]);
    expect(alertedUsers('deploys', words)).toEqual([]);
    expect(alertedUsers('cinema and circus', words)).toEqual([]);
    expect(alertedUsers('#deploy', words)).toEqual([]);
    expect(alertedUsers('x-ci', words)).toEqual([]);
  });

  it('finds a later occurrence when the first one is inside a word', () => {
    expect(alertedUsers('redeploy, then deploy', words)).toEqual([1]);
  });
});
