import { jira } from '../src/integrations/jira.js';
import { realmPeople, withPeople, type PeopleQuery } from '../src/index.js';
import { jsonRequest } from './support.js';

describe('withPeople (the people an integration names, looked up before it runs)', () => {
  const body = {
    webhookEvent: 'jira:issue_updated',
    issue_event_type_name: 'issue_commented',
    user: { displayName: 'Ada' },
    issue: { key: 'A-1', self: '', fields: { summary: 'S', assignee: { emailAddress: 'Grace@Acme.test' } } },
    comment: { body: 'ping [~grace] and [~nobody]' },
  };

  it("asks for the integration's people and hands the answer to the handler", async () => {
    const asked: PeopleQuery[] = [];
    const request = await withPeople(jira, jsonRequest(body), async (query) => {
      asked.push(query);
      return realmPeople(
        [{ email: 'grace@acme.test', fullName: 'Grace Hopper' }],
        [{ name: 'grace', fullName: 'Grace Hopper' }],
      );
    });
    expect(asked).toEqual([{ emails: ['Grace@Acme.test'], names: ['grace', 'nobody'] }]);
    expect(request.people?.fullNameByEmail(' GRACE@acme.test')).toBe('Grace Hopper');
    expect(request.people?.guessFullName('grace')).toBe('Grace Hopper');
    expect(request.people?.guessFullName('nobody')).toBeNull();
  });

  it('asks nothing when the integration names nobody, or its payload cannot be read', async () => {
    const lookUp = jest.fn();
    const plain = jsonRequest({ webhookEvent: 'jira:issue_created', issue: { fields: {} } });
    expect(await withPeople(jira, plain, lookUp)).toBe(plain);
    const broken = jsonRequest('not json');
    expect(await withPeople(jira, broken, lookUp)).toBe(broken);
    expect(lookUp).not.toHaveBeenCalled();
  });
});
