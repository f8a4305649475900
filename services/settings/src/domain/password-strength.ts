import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export interface PasswordPolicy {
  /** Characters (code points). Zulip's PASSWORD_MIN_LENGTH, default 6. */
  minLength: number;
  /** zxcvbn's estimated guesses needed. Zulip's PASSWORD_MIN_GUESSES, default 10000. */
  minGuesses: number;
}

// zxcvbn's matching is quadratic in the length; what lies beyond this only makes a password stronger.
const ESTIMATED_PREFIX = 100;

let estimator: ZxcvbnFactory | undefined;

function factory(): ZxcvbnFactory {
  // The dictionaries are large: build them on first use, once per process.
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

/** Zulip's check_password_strength: long enough and, by zxcvbn's estimate, hard enough to guess. */
export function isStrongPassword(password: string, policy: PasswordPolicy): boolean {
  if ([...password].length < policy.minLength) return false;
  // No guesses required (CONFAB_PASSWORD_MIN_GUESSES=0): no estimate to make.
  if (policy.minGuesses <= 0) return true;
  const { guesses } = factory().check(password.slice(0, ESTIMATED_PREFIX));
  return guesses >= policy.minGuesses;
}
