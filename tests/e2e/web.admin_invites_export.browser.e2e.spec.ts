import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { seriousViolations } from './support/axe';
import { countOnMemberSettings, eventually, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

interface Invite {
  id: number;
  email?: string;
  link_url?: string;
  is_multiuse: boolean;
  invited_as: number;
  expiry_date: number | null;
}

interface Export {
  id: number;
  pending: boolean;
  export_url: string | null;
  deleted_timestamp: number | null;
  export_type: number;
}

/** Issue 32: the administrators' invitations and export pages, done in the browser and read back through the API. */
describe('the web client: invitations and export for administrators', () => {
  const env = useBrowserWorld();
  const invites = async () => (await env.world.as('iago').get('/invites')).body.invites as Invite[];
  const fresh = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

  it('invites by email, resends and revokes; refuses a bad address with the reason; makes and revokes a link', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const section = page.locator('.admin-invitations');
    try {
      await page.click('#settings-open');
      await section.waitFor();
      await section.locator('text=No pending invitations.').waitFor();

      // Two addresses, as guests, into Denmark.
      const [rosalind, orlando] = [fresh('rosalind'), fresh('orlando')];
      await page.fill('#admin-invite-emails', `${rosalind}, ${orlando}`);
      await page.selectOption('#admin-invite-role', '600');
      await section.locator('.admin-invite-channels label', { hasText: '#Denmark' }).locator('input').check();
      await page.click('#admin-invite-send');
      await section.locator('[role="status"] >> text=Invitations sent').waitFor();
      const sent = (await invites()).filter((i) => !i.is_multiuse);
      expect(sent.map((i) => [i.email, i.invited_as]).sort()).toEqual(
        [
          [orlando, 600],
          [rosalind, 600],
        ].sort(),
      );
      for (const email of [rosalind, orlando]) await section.locator(`tr[data-admin-invite="${email}"]`).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await section.locator(`tr[data-admin-invite="${rosalind}"] button.admin-invite-resend`).click();
      await section.locator(`[role="status"] >> text=Invitation resent to ${rosalind}`).waitFor();
      expect((await invites()).map((i) => i.email)).toContain(rosalind);

      await section.locator(`tr[data-admin-invite="${orlando}"] button.admin-invite-revoke`).click();
      await section.locator(`tr[data-admin-invite="${orlando}"]`).waitFor({ state: 'detached' });
      expect((await invites()).map((i) => i.email)).toEqual([rosalind]);

      // The server's refusal, and why, for each address.
      await page.fill('#admin-invite-emails', 'not-an-address');
      await page.click('#admin-invite-send');
      await section
        .locator(`[role="alert"] >> text=Some emails did not validate, so we didn't send any invitations.`)
        .waitFor();
      expect(await section.locator('.admin-invite-refused li').allTextContents()).toEqual([
        'not-an-address: Invalid address.',
      ]);
      expect(await invites()).toHaveLength(1);

      // A reusable link that never expires: shown at once, listed, then revoked.
      await page.selectOption('#admin-invite-role', '400');
      await page.selectOption('#admin-invite-expiry', 'null');
      await page.click('#admin-invite-link');
      await section.locator('[role="status"] >> text=Invitation link created').waitFor();
      const url = (await page.locator('#admin-invite-link-url').textContent())!;
      const link = (await invites()).find((i) => i.is_multiuse)!;
      expect([link.link_url, link.invited_as, link.expiry_date]).toEqual([url, 400, null]);
      const row = section.locator(`tr[data-admin-invite="${url}"]`);
      await row.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await row.locator('button.admin-invite-revoke').click();
      await row.waitFor({ state: 'detached' });
      expect((await invites()).some((i) => i.is_multiuse)).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('starts an export, shows it finished when the server says so, downloads it, deletes it', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'iago@zulip.com');
    const section = page.locator('.admin-export');
    try {
      await page.click('#settings-open');
      await section.locator('text=No exports yet.').waitFor();
      await page.selectOption('#admin-export-type', '1');
      await page.click('#admin-export-start');
      await section.locator('[role="status"] >> text=Export started').waitFor();
      const started = ((await env.world.as('iago').get('/export/realm')).body.exports as Export[])[0]!;
      expect(started.export_type).toBe(1);
      const row = section.locator(`tr[data-admin-export="${started.id}"]`);
      await row.waitFor();

      // Finished: the page learns it from the realm_export event (it does not ask again by itself).
      await row.locator('a.admin-export-download').waitFor({ timeout: 60_000 });
      expect(await row.getAttribute('data-state')).toBe('Finished');
      const listed = ((await env.world.as('iago').get('/export/realm')).body.exports as Export[]).find(
        (e) => e.id === started.id,
      )!;
      expect(listed.pending).toBe(false);
      const href = (await row.locator('a.admin-export-download').getAttribute('href'))!;
      expect(href).toBe(new URL(listed.export_url!).pathname);
      // Clicking the link downloads it with the administrator's session: a gzip archive.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.locator('a.admin-export-download').click(),
      ]);
      expect(await download.failure()).toBeNull();
      expect([...readFileSync(await download.path()).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect(await seriousViolations(page)).toEqual([]);

      await row.locator('button.admin-export-delete').click();
      await eventually('the row to say the export is deleted', async () =>
        (await row.getAttribute('data-state')) === 'Deleted' ? true : undefined,
      );
      const after = ((await env.world.as('iago').get('/export/realm')).body.exports as Export[]).find(
        (e) => e.id === started.id,
      )!;
      expect(after.deleted_timestamp).not.toBeNull();
    } finally {
      await context.close();
    }
  });

  it('shows neither page to a member', async () => {
    expect(
      await countOnMemberSettings(env.browser, env.origin, '.admin-invitations, .admin-export, #admin-export-start'),
    ).toBe(0);
  });
});
