import { emailRefusal, isDisposableDomain } from '../src/domain/email-rules';

const outside = (email: string) =>
  `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;

describe('emailRefusal (Zulip’s email_allowed_for_realm and its sign-up form’s messages)', () => {
  const restricted = { settings: { emails_restricted_to_domains: true } };
  const domains = [
    { domain: 'corp.example', allowSubdomains: false },
    { domain: 'Group.Example', allowSubdomains: true },
  ];

  it('with emails_restricted_to_domains: the listed domains, subdomains only where allowed, case-insensitive', () => {
    expect(emailRefusal(restricted, 'viola@corp.example', domains)).toBeNull();
    expect(emailRefusal(restricted, 'viola@CORP.example', domains)).toBeNull();
    expect(emailRefusal(restricted, 'viola@eu.corp.example', domains)).toBe(outside('viola@eu.corp.example'));
    expect(emailRefusal(restricted, 'viola@group.example', domains)).toBeNull();
    expect(emailRefusal(restricted, 'viola@a.b.group.example', domains)).toBeNull();
    expect(emailRefusal(restricted, 'viola@notgroup.example', domains)).toBe(outside('viola@notgroup.example'));
    expect(emailRefusal(restricted, 'viola@example', domains)).toBe(outside('viola@example'));
    expect(emailRefusal(restricted, 'viola@corp.example', [])).toBe(outside('viola@corp.example'));
  });

  it('with emails_restricted_to_domains: no + in the address; the disposable check is not made (the list decides)', () => {
    expect(emailRefusal(restricted, 'viola+chat@corp.example', domains)).toBe(
      'Email addresses containing + are not allowed in this organization.',
    );
    const throwaway = [{ domain: 'mailinator.com', allowSubdomains: false }];
    expect(emailRefusal(restricted, 'toby@mailinator.com', throwaway)).toBeNull();
  });

  it('otherwise: any domain, except throwaway-mail ones while disallow_disposable_email_addresses is on (the default)', () => {
    expect(emailRefusal({ settings: {} }, 'viola+chat@anywhere.example', [])).toBeNull();
    expect(emailRefusal({ settings: {} }, 'toby@mailinator.com', [])).toBe('Please use your real email address.');
    expect(emailRefusal({ settings: { disallow_disposable_email_addresses: false } }, 'toby@mailinator.com', [])).toBe(
      null,
    );
    expect(isDisposableDomain('Mailinator.COM')).toBe(true);
    expect(isDisposableDomain('corp.example')).toBe(false);
  });
});
