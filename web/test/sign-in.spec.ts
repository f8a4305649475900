import { signInError } from '../src/app/sign-in-error';
import { ApiError } from '../src/lib/api';

describe('the sign-in page’s errors', () => {
  it('says when to try again after too many attempts, from the answer’s retry-after or its Retry-After header', () => {
    const limited = (body: Record<string, unknown>, header?: number) =>
      new ApiError(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', body, header);
    expect(signInError(limited({ 'retry-after': 42.3 }))).toBe('Too many sign-in attempts. Try again in 43 seconds.');
    expect(signInError(limited({}, 1))).toBe('Too many sign-in attempts. Try again in 1 second.');
    expect(signInError(limited({}))).toBe('Too many sign-in attempts. Try again in a moment.');
  });

  it('shows other refusals as the server words them', () => {
    expect(signInError(new ApiError(401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'))).toBe(
      'Your username or password is incorrect',
    );
  });
});
