import { ConfabError } from '@confab/errors';
import { createLogger } from '@confab/logging';
import { createMultiuseInvite, type MultiuseInviteInput } from '../src/domain/invites';
import { signUp } from '../src/domain/join';
import type { InviteRepository, Owners } from '../src/domain/ports';
import type { Caller, Invite, NewInvite, Signup } from '../src/domain/types';

class MemoryRepo implements InviteRepository {
  invites: Invite[] = [];
  signups: Signup[] = [];
  async create(data: NewInvite) {
    const invite = { ...data, id: this.invites.length + 1, revokedAt: null, usedAt: null };
    this.invites.push(invite);
    return invite;
  }
  async createMany(data: readonly NewInvite[]) {
    const out: Invite[] = [];
    for (const d of data) out.push(await this.create(d));
    return out;
  }
  async emailInvitesSince(realmId: number, since: Date) {
    return this.invites.filter((i) => i.realmId === realmId && i.email !== null && i.createdAt >= since).length;
  }
  async recordResend() {
    return true;
  }
  async markUsed(id: number, at: Date) {
    this.invites.find((i) => i.id === id)!.usedAt = at;
  }
  async byId(id: number) {
    return this.invites.find((i) => i.id === id) ?? null;
  }
  async byKey(key: string) {
    return this.invites.find((i) => i.key === key) ?? null;
  }
  async active() {
    return this.invites;
  }
  async revoke(id: number, at: Date) {
    this.invites.find((i) => i.id === id)!.revokedAt = at;
  }
  async expireLinksOf() {
    return true;
  }
  async setExpiry() {
    return true;
  }
  async claimSignup(invite: Invite, emailKey: string) {
    if (this.signups.some((s) => s.realmId === invite.realmId && s.emailKey === emailKey)) return null;
    const signup = {
      id: this.signups.length + 1,
      inviteId: invite.id,
      realmId: invite.realmId,
      emailKey,
      userId: null,
      completedAt: null,
    };
    this.signups.push(signup);
    return signup;
  }
  async signupFor(realmId: number, emailKey: string) {
    return this.signups.find((s) => s.realmId === realmId && s.emailKey === emailKey) ?? null;
  }
  async releaseSignup(id: number) {
    this.signups = this.signups.filter((s) => s.id !== id || s.userId !== null);
  }
  async setSignupUser(id: number, userId: number) {
    this.signups.find((s) => s.id === id)!.userId = userId;
  }
  async completeSignup(id: number, at: Date) {
    this.signups.find((s) => s.id === id)!.completedAt = at;
  }
  async ping() {
    return true;
  }
}

/** Records the calls in order; each check can be made to refuse. */
class FakeOwners implements Owners {
  calls: string[] = [];
  refuse: Partial<Record<'permission' | 'groups' | 'channels' | 'createUser' | 'subscribe', string>> = {};
  async realm(realmId: number) {
    return { id: realmId, url: 'http://org.localhost', name: 'Org', deactivated: false, permissions: {} };
  }
  async holds() {
    return true;
  }
  async existingAccounts() {
    return [];
  }
  async refusedInvitees() {
    return [];
  }
  async sendMail() {
    return true;
  }
  async person() {
    return null;
  }
  async checkGroups(_caller: Caller, groupIds: readonly number[]) {
    this.calls.push(groupIds.length === 0 ? 'permission' : 'groups');
    const refusal = groupIds.length === 0 ? this.refuse.permission : this.refuse.groups;
    if (refusal) throw new ConfabError(refusal);
  }
  async checkChannels() {
    this.calls.push('channels');
    if (this.refuse.channels) throw new ConfabError(this.refuse.channels);
  }
  async createUser() {
    this.calls.push('createUser');
    if (this.refuse.createUser) throw new ConfabError(this.refuse.createUser);
    return { userId: 99, email: 'x@example.com' };
  }
  async subscribe() {
    this.calls.push('subscribe');
    if (this.refuse.subscribe) throw new Error(this.refuse.subscribe);
  }
  async joinGroups() {
    this.calls.push('joinGroups');
  }
  async sendWelcome(_realmId: number, _senderId: number, _recipientId: number, content: string) {
    this.calls.push(`welcome:${content}`);
  }
}

const admin: Caller = { userId: 1, realmId: 1, role: 200, isBot: false };
const input = (extra: Partial<MultiuseInviteInput> = {}): MultiuseInviteInput => ({
  expiresInMinutes: undefined,
  inviteAs: 400,
  streamIds: [],
  groupIds: [],
  includeRealmDefaultSubscriptions: false,
  welcomeMessageCustomText: undefined,
  ...extra,
});
const logger = createLogger({ name: 'test', level: 'silent' });

describe('createMultiuseInvite', () => {
  it('checks permission, role, channels and groups in Zulip’s order', async () => {
    const owners = new FakeOwners();
    const ctx = { repo: new MemoryRepo(), owners, defaultExpiryMinutes: 14400, maxInvitesPerDay: 100 };
    await createMultiuseInvite(ctx, admin, input({ streamIds: [5, 5], groupIds: [9] }));
    expect(owners.calls).toEqual(['permission', 'channels', 'groups']);
    expect(ctx.repo.invites[0]!.streamIds).toEqual([5]);

    owners.calls = [];
    owners.refuse.permission = 'Insufficient permission';
    await expect(createMultiuseInvite(ctx, admin, input({ streamIds: [5] }))).rejects.toThrow(
      'Insufficient permission',
    );
    expect(owners.calls).toEqual(['permission']);
  });

  it('refuses a role above the caller’s before looking at channels', async () => {
    const owners = new FakeOwners();
    const ctx = { repo: new MemoryRepo(), owners, defaultExpiryMinutes: 14400, maxInvitesPerDay: 100 };
    await expect(createMultiuseInvite(ctx, admin, input({ inviteAs: 100, streamIds: [5] }))).rejects.toThrow(
      'Insufficient permission',
    );
    expect(owners.calls).toEqual(['permission']);
  });

  it('uses the server default expiry, or never for null', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const ctx = {
      repo: new MemoryRepo(),
      owners: new FakeOwners(),
      defaultExpiryMinutes: 60,
      maxInvitesPerDay: 100,
      now: () => now,
    };
    await createMultiuseInvite(ctx, admin, input());
    await createMultiuseInvite(ctx, admin, input({ expiresInMinutes: null }));
    await createMultiuseInvite(ctx, admin, input({ expiresInMinutes: 1 }));
    expect(ctx.repo.invites.map((i) => i.expiresAt?.toISOString() ?? null)).toEqual([
      '2026-01-01T01:00:00.000Z',
      null,
      '2026-01-01T00:01:00.000Z',
    ]);
    // Creation and expiry come from one clock reading.
    expect(ctx.repo.invites.map((i) => i.createdAt.toISOString())).toEqual(Array(3).fill(now.toISOString()));
  });
});

describe('signUp', () => {
  async function withLink(extra: Partial<MultiuseInviteInput> = {}) {
    const repo = new MemoryRepo();
    const owners = new FakeOwners();
    await createMultiuseInvite({ repo, owners, defaultExpiryMinutes: 60, maxInvitesPerDay: 100 }, admin, input(extra));
    owners.calls = [];
    const ctx = { repo, owners, defaultWelcomeText: 'Hello!', logger };
    return { repo, owners, ctx, key: repo.invites[0]!.key };
  }
  const form = { fullName: 'New', email: 'New@Example.com', password: 'pw' };

  it('creates the account, then channels, groups and the welcome message', async () => {
    const { owners, ctx, key } = await withLink({ groupIds: [4], welcomeMessageCustomText: 'Hi **there**' });
    const outcome = await signUp(ctx, key, form);
    expect(outcome.kind).toBe('created');
    expect(owners.calls).toEqual(['createUser', 'subscribe', 'joinGroups', 'welcome:Hi **there**']);
  });

  it('answers a second submission for the same address without creating anything', async () => {
    const { owners, ctx, key } = await withLink();
    await signUp(ctx, key, form);
    owners.calls = [];
    const again = await signUp(ctx, key, { ...form, email: 'new@example.COM' });
    expect(again.kind).toBe('already');
    expect(owners.calls).toEqual([]);
  });

  it('frees the address when the account is refused', async () => {
    const { owners, ctx, key, repo } = await withLink();
    owners.refuse.createUser = 'The password is too weak.';
    const refused = await signUp(ctx, key, form);
    expect(refused).toMatchObject({ kind: 'refused', message: 'The password is too weak.' });
    expect(repo.signups).toEqual([]);
    delete owners.refuse.createUser;
    expect((await signUp(ctx, key, form)).kind).toBe('created');
  });

  it('still sends the welcome message when subscribing fails', async () => {
    const { owners, ctx, key } = await withLink();
    owners.refuse.subscribe = 'messaging is down';
    expect((await signUp(ctx, key, form)).kind).toBe('created');
    expect(owners.calls).toEqual(['createUser', 'subscribe', 'welcome:Hello!']);
  });

  it('reports revoked, expired and unknown links', async () => {
    const { ctx, key, repo } = await withLink();
    expect(await signUp(ctx, 'zzzzzzzzzzzzzzzzzzzzzzzz', form)).toEqual({ kind: 'link', problem: 'not_found' });
    repo.invites[0]!.expiresAt = new Date(Date.now() - 1000);
    expect(await signUp(ctx, key, form)).toEqual({ kind: 'link', problem: 'expired' });
    repo.invites[0]!.revokedAt = new Date();
    expect(await signUp(ctx, key, form)).toEqual({ kind: 'link', problem: 'revoked' });
  });
});
