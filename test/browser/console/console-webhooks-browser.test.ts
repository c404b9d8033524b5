/**
 * The console's Webhooks page in headless Chromium, against the real api and workers and a real
 * receiver on loopback that verifies Standard Webhooks signatures: an endpoint added through the
 * form (a 400 lands at its field) shows its secret once; "Send test event" delivers, signed with
 * that secret, and says so; the delivery log lists it, opens its payload and attempts, and
 * replays it; a link made over the API reaches the receiver through the workers; turning it off
 * offers an Undo; rotating asks first and shows the new secret once. axe-core finds nothing
 * serious or critical at 390 and 1440 px, in light and dark, and nothing reaches past a phone's
 * screen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startConsoleApi } from '../../support/console.js';
import { startReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

let api: TestApi;
let base: string;
let browser: Browser;
let receiver: TestReceiver;
let workers: RunningWorkers | undefined;
let owner: TestAccount;
let hookId = '';

beforeAll(async () => {
  receiver = await startReceiver();
  ({ api, base } = await startConsoleApi());
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx, { plan: 'business', name: 'Cafe Aroma' });
  for (const name of ['Lisbon flyers', 'Porto menus']) await call(api.app, owner.key, 'POST', '/api/v1/folders', { name });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await workers?.close();
  await api?.close();
  await receiver?.close();
});

async function open(path: string, viewport: typeof DESKTOP | typeof PHONE = DESKTOP) {
  // bypassCSP: axe-core is injected as a script, which the console's policy would refuse.
  const context = await browser.newContext({ bypassCSP: true, ...viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}#${path}`);
  return { context, page, problems };
}

const toast = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text });

describe.skipIf(!hasChromium)('console: webhooks', () => {
  it('adds an endpoint, shows its secret once, delivers a test event, logs it, replays it and turns it off', async () => {
    const { context, page, problems } = await open('/webhooks');
    try {
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('No webhooks yet').waitFor();
      await page.getByRole('link', { name: 'Add webhook' }).click();
      await page.getByRole('heading', { name: 'Add a webhook', level: 1 }).waitFor();

      // Nothing filled: said at the fields, before any request.
      await page.getByRole('button', { name: 'Add webhook' }).click();
      expect(await page.locator('#field-url-error').textContent()).toContain('Enter the address');
      expect(await page.locator('#field-events-error').textContent()).toBe('Choose at least one event.');

      // The API's 400 lands at the URL field.
      await page.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
      await page.getByRole('checkbox', { name: 'Link created', exact: true }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.locator('#field-url-error').waitFor();
      expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-events-error').count()).toBe(0);

      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description (optional)').fill('CRM sync');
      await page.getByRole('checkbox', { name: 'Link changed', exact: true }).check();
      await page.getByRole('button', { name: 'Select all domains events' }).click();
      await page.getByText('Only for some links (optional)').click();
      await page.getByRole('checkbox', { name: 'Lisbon flyers' }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();

      // The endpoint's page, its secret shown once.
      const panel = page.getByRole('region', { name: 'Its signing secret' });
      await panel.waitFor();
      expect(await panel.textContent()).toContain('it will not be shown again');
      const secret = (await panel.locator('code.secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      receiver.secrets = [secret];
      const listed = (await call(api.app, owner.key, 'GET', '/api/v1/webhooks')).json().data as Array<Record<string, unknown>>;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        url: receiver.url,
        description: 'CRM sync',
        events: ['link.created', 'link.updated', 'domain.verified', 'domain.misconfigured'],
        link_ids: null,
      });
      expect((listed[0]!.folder_ids as string[]).length).toBe(1);
      hookId = listed[0]!.id as string;
      expect(page.url()).toContain(`#/webhooks/${hookId}`);
      await panel.getByRole('button', { name: 'Copy secret' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await panel.getByRole('button', { name: 'I have saved it' }).click();
      expect(await panel.count()).toBe(0);

      // A test event, delivered and verified under the secret.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await toast(page, 'Test event delivered: HTTP 200 in').waitFor();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]).toMatchObject({ verifiedBy: [0], payload: { type: 'webhook.test' } });

      // In the log; opened, its payload and attempt; replayed with the same webhook-id.
      const row = page.locator('.delivery-table tbody tr').first();
      await row.getByText('Delivered').waitFor();
      await row.getByRole('button', { name: 'webhook.test' }).click();
      const delivery = page.getByRole('region', { name: 'Test event' });
      await delivery.getByLabel('Payload').waitFor();
      expect(await delivery.getByLabel('Payload').textContent()).toContain('"type": "webhook.test"');
      expect(await delivery.locator('.attempt-log li').count()).toBe(1);
      await delivery.getByRole('button', { name: 'Replay' }).click();
      await toast(page, 'Replay delivered: HTTP 200').waitFor();
      expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0]!.id, receiver.received[0]!.id]);
      await expect.poll(() => delivery.locator('.attempt-log li').count()).toBe(2);
      // Closed, focus goes back to its row.
      await delivery.getByRole('button', { name: 'Close the delivery' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('webhook.test');

      // A real event, through the workers: a link moved into the folder the endpoint is limited to.
      const folders = (await call(api.app, owner.key, 'GET', '/api/v1/folders')).json().data as Array<{ id: string; name: string }>;
      const lisbon = folders.find((f) => f.name === 'Lisbon flyers')!.id;
      const flyer = await createLinkVia(api.app, owner.key);
      await call(api.app, owner.key, 'PUT', `/api/v1/links/${flyer.slug}/folder`, { folder_id: lisbon });
      await expect.poll(() => receiver.received.map((r) => r.payload.type), { timeout: 15_000 }).toContain('link.updated');
      // The link made outside the folder was not sent.
      expect(receiver.received.map((r) => r.payload.type)).not.toContain('link.created');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.locator('.delivery-table').getByRole('button', { name: 'link.updated' }).waitFor();

      // Turned off, with an Undo; then off for good.
      await page.getByRole('button', { name: 'Turn off' }).click();
      await toast(page, 'Webhook turned off.').getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('button', { name: 'Turn off' }).waitFor();
      expect((await call(api.app, owner.key, 'GET', `/api/v1/webhooks/${hookId}`)).json().data.enabled).toBe(true);
      await page.getByRole('button', { name: 'Turn off' }).click();
      await page.getByText('Turned off by you. No events are sent to it').waitFor();
      expect((await call(api.app, owner.key, 'GET', `/api/v1/webhooks/${hookId}`)).json().data).toMatchObject({
        enabled: false,
        disabled_reason: 'manual',
      });

      // Rotating asks first, keeps the old secret 24 h, and shows the new one once.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
      expect(await dialog.getByRole('checkbox', { name: /Keep the old secret/ }).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = page.getByRole('region', { name: 'The new signing secret' });
      await rotated.waitFor();
      const next = (await rotated.locator('code.secret').textContent())!.trim();
      expect(next).not.toBe(secret);
      await page.getByText('Also signs until').waitFor();
      expect(await page.locator('.limited-to').textContent()).toContain('Lisbon flyers');

      // The list says it all in a row.
      await page.getByRole('link', { name: 'All webhooks' }).click();
      const card = page.getByRole('article', { name: receiver.url.replace(/^http:\/\//, '') });
      await card.getByText('Turned off', { exact: true }).waitFor();
      expect(await card.textContent()).toContain('Last success: just now');
      expect(await card.textContent()).toContain('Link events only for 1 folder');
      expect(await card.textContent()).toContain('Turned off by you.');

      // Turned on again from its row's menu, by keyboard: Enter opens it, its letter runs "Turn on".
      await card.getByRole('button', { name: /^Actions for the webhook/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: /Turn on/ }).waitFor();
      await page.keyboard.press('o');
      await toast(page, 'Webhook turned on.').waitFor();
      await card.getByText('Active', { exact: true }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('edits an endpoint, and deletes one after asking', async () => {
    const made = await call(api.app, owner.key, 'POST', '/api/v1/webhooks', {
      url: `${receiver.url}/old`,
      events: ['bulk.completed'],
    });
    const id = made.json().id as string;
    const { context, page, problems } = await open(`/webhooks/${id}/edit`);
    try {
      await page.getByRole('heading', { name: 'Edit webhook' }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Batch finished', exact: true }).isChecked()).toBe(true);
      await page.getByLabel('Description (optional)').fill('Zapier: new batches to the sheet');
      await page.getByRole('checkbox', { name: 'Export finished', exact: true }).check();
      // Leaving with changes asks first; staying keeps them.
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
      expect(await page.getByLabel('Description (optional)').inputValue()).toBe('Zapier: new batches to the sheet');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Webhook saved.').waitFor();
      expect((await call(api.app, owner.key, 'GET', `/api/v1/webhooks/${id}`)).json().data).toMatchObject({
        description: 'Zapier: new batches to the sheet',
        events: ['bulk.completed', 'export.completed'],
      });
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
      await toast(page, 'deleted.').waitFor();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      expect((await call(api.app, owner.key, 'GET', `/api/v1/webhooks/${id}`)).statusCode).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`is axe clean in light and dark and fits the screen at ${label} px`, async () => {
      // A second endpoint, one a receiver turned off, for the list (its address, one no test
      // resolves, written in the database for the screenshots).
      if (label === '1440') {
        const second = await call(api.app, owner.key, 'POST', '/api/v1/webhooks', {
          url: `${receiver.url}/zapier`,
          description: 'Zapier: new links to the marketing sheet',
          events: ['link.created', 'link.updated', 'link.deleted', 'link.scanned', 'link.scan_limit_reached', 'bulk.completed'],
        });
        await api.ctx.database.pool.query(
          `update webhook_endpoints set url = $2, disabled_at = now(), disabled_reason = 'gone', consecutive_failures = 3 where id = $1`,
          [second.json().id, 'https://hooks.zapier.com/hooks/catch/1234567/abcdefg/'],
        );
      }
      const { context, page, problems } = await open('/webhooks', viewport);
      const check = async (name: string) => {
        await page.mouse.move(0, 0);
        expect(await seriousViolationsByTheme(page), name).toEqual({ light: [], dark: [] });
        expect(await overflowingElements(page, viewport.viewport.width), name).toEqual([]);
        await consoleScreenshot(page, name, { dark: true });
      };
      try {
        await page.getByText('receiver answered 410 Gone').waitFor();
        await check('webhooks');

        await page.goto(`${base}#/webhooks/${hookId}`);
        await page.locator('.delivery-table').getByRole('button', { name: 'webhook.test' }).click();
        await page.getByRole('region', { name: 'Test event' }).getByLabel('Payload').waitFor();
        await check('webhooks-endpoint');

        // Rotating: asked first, then the new secret once.
        await page.getByRole('button', { name: 'Rotate secret' }).click();
        await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).waitFor();
        expect(await seriousViolationsByTheme(page), 'rotate dialog').toEqual({ light: [], dark: [] });
        await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
        await page.getByRole('region', { name: 'The new signing secret' }).waitFor();
        await check('webhooks-secret');

        await page.goto(`${base}#/webhooks/new`);
        await page.getByRole('heading', { name: 'Add a webhook' }).waitFor();
        await page.getByRole('checkbox', { name: 'Link scanned', exact: true }).check();
        await page.evaluate(() => window.scrollTo(0, 0));
        await check('webhooks-form');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
