/**
 * The console's people pages in headless Chromium against the real api: an owner invites someone
 * from the Members page and the invited person joins from the link the page shows; the role is
 * changed and the person removed, each through its dialog, a refusal said in the dialog; a viewer
 * sees what they cannot do disabled with the reason; the Activity page tells the changes in
 * sentences and filters them; axe-core's serious and critical findings at 390 and 1440 px, light
 * and dark.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
} from '../../support/browser.js';
import { openConsolePage, signInWithPassword, startConsoleApi } from '../../support/console.js';
import { createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn, type TestPerson } from '../../support/people.js';

let api: TestApi;
let base: string;
let browser: Browser;
let lisboa: TestAccount;
let ana: TestPerson;
let anaCookie: string;
let vera: TestPerson;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  lisboa = await createTestAccount(api.ctx, { plan: 'business', name: 'Aroma Lisboa' });
  ana = await createTestPerson(api.ctx, lisboa.accountId, 'owner', { name: 'Ana Silva', email: `ana-${process.pid}@members.example` });
  vera = await createTestPerson(api.ctx, lisboa.accountId, 'viewer', { name: 'Vera Lima', email: `vera-${process.pid}@members.example` });
  anaCookie = await signIn(api.app, ana.email, ana.password);
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const open = (options: Parameters<Browser['newContext']>[0] = DESKTOP, url = base) => openConsolePage(browser, url, options);

async function signInAs(page: Page, person: { email: string; password: string }) {
  await signInWithPassword(page, person);
  await page.locator('main#main').waitFor();
}

const members = async () =>
  (await callAs(api.app, anaCookie, 'GET', '/api/v1/members')).json().data as Array<{ email: string; role: string }>;

describe.skipIf(!hasChromium)('console: members', () => {
  it(
    'an owner invites from Members; the invited person joins from the link; their role changes; they are removed',
    { timeout: 90_000 },
    async () => {
      const email = `nuno-${process.pid}@members.example`;
      const { context, page, problems } = await open(DESKTOP, `${base}#/members`);
      try {
        await signInAs(page, ana);
        const list = page.getByRole('region', { name: /^Members/ });
        await list.getByRole('rowheader', { name: /Vera Lima/ }).waitFor();
        // Nobody changes their own role: Ana's row says so instead of offering it.
        const own = list.getByRole('row', { name: /Ana Silva/ });
        expect(await own.getByRole('button', { name: /Change role/ }).isDisabled()).toBe(true);
        expect(await own.textContent()).toContain('Nobody changes their own role');

        // By keyboard: the invite button, then the dialog's fields.
        await page.getByRole('button', { name: 'Invite member' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Invite a member' });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Send invitation' }).click();
        await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Enter the email address');
        await dialog.getByLabel('Email address').fill(email);
        await dialog.getByRole('radio', { name: /^Editor/ }).check();
        await dialog.getByRole('button', { name: 'Send invitation' }).click();
        const sent = page.getByRole('region', { name: `Invitation for ${email}` });
        await sent.waitFor();
        const link = (await sent.locator('#invitation-link').textContent())!.trim();
        expect(link).toMatch(/#\/join\?token=/);
        await expect.poll(() => page.locator('.toast').first().textContent()).toContain(email);
        const pending = page.getByRole('region', { name: /^Pending invitations/ });
        await pending.getByRole('rowheader', { name: email }).waitFor();
        expect(problems).toEqual([]);

        // The invited person opens the link in their own browser and joins.
        const joining = await open(PHONE, `${base}${new URL(link).hash}`);
        try {
          await joining.page.getByLabel('Your name').fill('Nuno Reis');
          await joining.page.getByLabel('Choose a password', { exact: true }).fill('a long enough new password');
          await joining.page.getByRole('button', { name: 'Join', exact: true }).click();
          // Signed in, in the shell: the person menu shows their name.
          await joining.page.getByRole('button', { name: /Nuno Reis/ }).waitFor();
        } finally {
          await joining.context.close();
        }
        await page.reload();
        await list.getByRole('rowheader', { name: /Vera Lima/ }).waitFor();
        const nuno = list.getByRole('row', { name: /Nuno Reis/ });
        await nuno.waitFor();
        expect(await nuno.textContent()).toContain('Editor');
        expect(await pending.getByRole('rowheader', { name: email }).count()).toBe(0);

        // Role change through its dialog.
        await nuno.getByRole('button', { name: 'Change role of Nuno Reis' }).click();
        const roleDialog = page.getByRole('dialog', { name: 'Change role of Nuno Reis' });
        await roleDialog.getByRole('radio', { name: /^Viewer/ }).check();
        await roleDialog.getByRole('button', { name: 'Save role' }).click();
        await expect.poll(() => nuno.textContent()).toContain('Viewer');
        expect((await members()).find((m) => m.email === email)?.role).toBe('viewer');

        // A refusal is said in the dialog: someone else removed Nuno meanwhile.
        const nunoId = (
          (await callAs(api.app, anaCookie, 'GET', '/api/v1/members')).json().data as Array<{ email: string; userId: string }>
        ).find((m) => m.email === email)!.userId;
        await nuno.getByRole('button', { name: 'Remove Nuno Reis' }).click();
        const removeDialog = page.getByRole('dialog', { name: 'Remove Nuno Reis?' });
        await removeDialog.waitFor();
        expect((await callAs(api.app, anaCookie, 'DELETE', `/api/v1/members/${nunoId}`)).statusCode).toBe(200);
        await removeDialog.getByRole('button', { name: 'Remove member' }).click();
        await expect.poll(() => removeDialog.getByRole('alert').textContent()).toMatch(/not found/i);
        await removeDialog.getByRole('button', { name: 'Cancel' }).click();
        expect((await members()).some((m) => m.email === email)).toBe(false);
        expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'removing a member asks first; the list and the server lose them; an invitation is resent and withdrawn',
    { timeout: 60_000 },
    async () => {
      const leaving = await createTestPerson(api.ctx, lisboa.accountId, 'editor', { name: 'Rui Costa' });
      const invited = `ines-${process.pid}@members.example`;
      expect((await callAs(api.app, anaCookie, 'POST', '/api/v1/invitations', { email: invited, role: 'viewer' })).statusCode).toBe(200);
      const { context, page, problems } = await open(PHONE, `${base}#/members`);
      try {
        await signInAs(page, ana);
        const row = page.getByRole('row', { name: /Rui Costa/ });
        await row.getByRole('button', { name: 'Remove Rui Costa' }).click();
        const dialog = page.getByRole('dialog', { name: 'Remove Rui Costa?' });
        // Escape keeps them.
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect((await members()).some((m) => m.email === leaving.email)).toBe(true);
        await row.getByRole('button', { name: 'Remove Rui Costa' }).click();
        await dialog.getByRole('button', { name: 'Remove member' }).click();
        await row.waitFor({ state: 'detached' });
        expect((await members()).some((m) => m.email === leaving.email)).toBe(false);

        const pending = page.getByRole('row', { name: new RegExp(invited) });
        await pending.getByRole('button', { name: `Resend the invitation of ${invited}` }).click();
        await page.getByRole('region', { name: `Invitation for ${invited}` }).waitFor();
        // The resend's toast may lie over the row on a phone: the keyboard reaches the button all the same.
        await pending.getByRole('button', { name: `Withdraw the invitation of ${invited}` }).focus();
        await page.keyboard.press('Enter');
        await pending.waitFor({ state: 'detached' });
        const left = (await callAs(api.app, anaCookie, 'GET', '/api/v1/invitations')).json().data as Array<{
          email: string;
          status: string;
        }>;
        expect(left.find((i) => i.email === invited)?.status).toBe('revoked');
        expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('a viewer sees what they cannot do disabled, with the reason', { timeout: 60_000 }, async () => {
    const { context, page, problems } = await open(DESKTOP, `${base}#/links`);
    try {
      await signInAs(page, vera);
      const newLink = page.getByRole('button', { name: 'New link' });
      await newLink.waitFor();
      expect(await newLink.isDisabled()).toBe(true);
      expect(await page.locator('#links-blocked').textContent()).toContain("Viewers can't");
      expect(await page.locator('#links-blocked').textContent()).toContain('edit links — ask an admin.');
      // Activity is an admin's: in the navigation, disabled, saying why.
      expect(await page.locator('nav li.disabled', { hasText: 'Activity' }).textContent()).toContain(
        "Viewers can't read the activity log — ask an admin.",
      );

      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('rowheader', { name: /Ana Silva/ }).waitFor();
      expect(await page.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);
      expect(await page.locator('#members-blocked').textContent()).toBe("Viewers can't invite or change members — ask an admin.");
      expect(await page.getByRole('button', { name: 'Remove Ana Silva' }).isDisabled()).toBe(true);
      // Not loaded for a viewer: invitations are an admin's.
      expect(await page.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Activity tells the changes in sentences, filtered by what and who', { timeout: 60_000 }, async () => {
    const made = await callAs(api.app, anaCookie, 'POST', '/api/v1/links', {
      name: 'Menu',
      type: 'website',
      data: { url: 'https://example.com/old' },
    });
    expect(made.statusCode).toBe(200);
    const slug = made.json().id as string;
    const changed = await callAs(api.app, anaCookie, 'PUT', `/api/v1/links/${slug}`, {
      name: 'Menu',
      type: 'website',
      data: { url: 'https://example.com/new' },
    });
    expect(changed.statusCode).toBe(200);
    const veraCookie = await signIn(api.app, vera.email, vera.password);
    const veraId = ((await callAs(api.app, veraCookie, 'GET', '/api/v1/me')).json().user as { id: string }).id;
    expect((await callAs(api.app, anaCookie, 'PATCH', `/api/v1/members/${veraId}`, { role: 'editor' })).statusCode).toBe(200);
    expect((await callAs(api.app, anaCookie, 'PATCH', `/api/v1/members/${veraId}`, { role: 'viewer' })).statusCode).toBe(200);

    const { context, page, problems } = await open(DESKTOP, `${base}#/activity`);
    try {
      await signInAs(page, ana);
      const list = page.getByRole('list', { name: 'Activity, newest first' });
      await list.waitFor();
      const lines = () => list.locator('.activity-line').allTextContents();
      await expect.poll(lines).toContainEqual(expect.stringContaining(`Ana Silva changed the destination of /${slug}`));
      expect(await lines()).toContainEqual(expect.stringContaining(`Ana Silva created the link /${slug}`));
      expect(await lines()).toContainEqual(expect.stringContaining('Ana Silva changed the role of Vera Lima from editor to viewer'));
      // The change's details open on demand.
      const entry = list.locator('li', { hasText: 'changed the destination' }).first();
      await entry.getByText('1 change').click();
      expect(await entry.textContent()).toContain('Destination: https://example.com/old → https://example.com/new');

      await page.getByLabel('What').selectOption('member');
      // Polled for the lines themselves: while the filtered page loads the list is empty, and every
      // line of an empty list matches anything (a CI run read it then).
      await expect
        .poll(async () => (await lines()).slice(0, 2))
        .toEqual([
          expect.stringContaining('Ana Silva changed the role of Vera Lima from editor to viewer'),
          expect.stringContaining('Ana Silva changed the role of Vera Lima from viewer to editor'),
        ]);
      expect((await lines()).every((l) => / (changed the role of|removed) /.test(l))).toBe(true);
      await page.getByLabel('Who').selectOption({ label: 'Vera Lima' });
      await page.getByRole('heading', { name: 'Nothing matches these filters' }).waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(async () => (await lines()).length).toBeGreaterThan(3);
      // Dates: a day in the past holds nothing.
      await page.getByLabel('To').fill('2020-01-01');
      await page.getByRole('heading', { name: 'Nothing matches these filters' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Members and Activity have no serious axe finding at 390 and 1440 px, light and dark', { timeout: 120_000 }, async () => {
    // Something in the log, whichever tests ran before; a folder for the client's picker.
    expect((await callAs(api.app, anaCookie, 'POST', '/api/v1/folders', { name: 'Lisbon menus' })).statusCode).toBe(200);
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open(size, `${base}#/members`);
      try {
        const width = size.viewport.width;
        await signInAs(page, ana);
        await page.getByRole('rowheader', { name: /Vera Lima/ }).waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'members', { dark: true });
        expect(await seriousViolationsByTheme(page), `members ${width}`).toEqual({ light: [], dark: [] });
        await page.getByRole('button', { name: 'Invite member' }).click();
        const dialog = page.getByRole('dialog', { name: 'Invite a member' });
        await dialog.getByRole('radio', { name: /^Client/ }).check();
        await dialog.getByText('Client access').waitFor();
        expect(await seriousViolationsByTheme(page), `invite ${width}`).toEqual({ light: [], dark: [] });
        await dialog.getByRole('button', { name: 'Cancel' }).click();

        await page.evaluate(() => (location.hash = '#/activity'));
        await page.locator('.activity-line').first().waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'activity', { dark: true });
        expect(await seriousViolationsByTheme(page), `activity ${width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
