import { automaticPolicyOnSend } from '../src/domain/topic-policy';

const user = (follow: number, unmute: number) => ({
  automaticallyFollowTopicsPolicy: follow,
  automaticallyUnmuteTopicsInMutedStreamsPolicy: unmute,
});
const facts = (senderPolicy: number, topicHadMessages: boolean, senderMuted: boolean | null = false) => ({
  senderPolicy,
  topicHadMessages,
  senderMuted,
});

describe('automaticPolicyOnSend (Zulip defaults: follow on initiation, unmute on send)', () => {
  const defaults = user(3, 2);

  it('follows a topic the sender starts', () => {
    expect(automaticPolicyOnSend(defaults, facts(0, false))).toBe(3);
  });

  it('changes nothing for later messages in an unmuted channel', () => {
    expect(automaticPolicyOnSend(defaults, facts(0, true))).toBeNull();
  });

  it('unmutes topics the sender writes in while the channel is muted', () => {
    expect(automaticPolicyOnSend(defaults, facts(0, true, true))).toBe(2);
    expect(automaticPolicyOnSend(defaults, facts(2, true, true))).toBeNull();
  });

  it('never lowers a followed topic', () => {
    expect(automaticPolicyOnSend(user(2, 2), facts(3, true, true))).toBeNull();
  });

  it('follows on every send or participation when asked to, even muted topics', () => {
    expect(automaticPolicyOnSend(user(2, 4), facts(1, true))).toBe(3);
    expect(automaticPolicyOnSend(user(1, 4), facts(0, true))).toBe(3);
  });

  it('does nothing with both policies set to never', () => {
    expect(automaticPolicyOnSend(user(4, 4), facts(0, false, true))).toBeNull();
  });
});
