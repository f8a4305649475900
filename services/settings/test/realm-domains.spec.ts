import { domainProblem } from '../src/domain/realm-domains';

describe('domainProblem (Zulip’s validate_domain)', () => {
  it('accepts domains of letters, digits, dashes and dots', () => {
    for (const domain of ['example.com', 'a.b', 'mail-1.example.co.uk', `${'a'.repeat(63)}.example`])
      expect(domainProblem(domain)).toBeNull();
  });

  it.each([
    ['', "Domain can't be empty."],
    ['localhost', 'Domain must have at least one dot (.)'],
    [`${'a'.repeat(252)}.com`, 'Domain is too long'],
    ['.example.com', 'Domain cannot start or end with a dot (.)'],
    ['example.com.', 'Domain cannot start or end with a dot (.)'],
    ['mail..example.com', "Consecutive '.' are not allowed."],
    ['mail-.example.com', "Subdomains cannot start or end with a '-'."],
    ['-mail.example.com', "Subdomains cannot start or end with a '-'."],
    ['Example.com', "Domain can only have letters, numbers, '.' and '-'s."],
    ['mail_box.example.com', "Domain can only have letters, numbers, '.' and '-'s."],
  ])('refuses %j', (domain, problem) => {
    expect(domainProblem(domain)).toBe(problem);
  });
});
