/**
 * Mail that leaves: through a real SMTP server when SMTP_URL is set, into the log when it is not;
 * a server that refuses, is closed or never answers is reported back, within the timeout.
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#platform/config/index.js';
import { createMailer, MailAddressError } from '#platform/mail/index.js';
import { invitationMail, passwordChangedMail, passwordResetMail } from '#domain/people/mails.js';
import { captureLogs } from '../../support/logs.js';
import { startSilentServer, startSmtpServer, type RunningSmtp } from '../../support/smtp.js';

const FROM = 'qrlinks <no-reply@qrlinks.test>';
const LINK = 'https://links.example.test/invitations/accept?token=tok_3f9a-b2&x=1';
const EXPIRES = new Date('2026-12-06T14:05:00Z');

describe('mail over SMTP', () => {
  let smtp: RunningSmtp;
  beforeAll(async () => {
    smtp = await startSmtpServer({ refuse: (to) => (to.startsWith('nobody@') ? { code: 550, message: 'No such user here' } : null) });
  });
  afterAll(() => smtp.close());

  it('delivers an invitation: subject, text with the link, HTML with it escaped, from MAIL_FROM', async () => {
    const logs = captureLogs();
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM }, logs.logger);
    const mail = invitationMail({
      accountName: 'Café <Bar> & Grill',
      inviterName: 'Ann "the boss"',
      role: 'editor',
      link: LINK,
      expiresAt: EXPIRES,
    });
    expect(await mailer.send({ to: 'new.person@example.test', ...mail })).toEqual({ delivered: true });

    const got = await smtp.waitForMail((m) => m.envelope.to.includes('new.person@example.test'));
    expect(got.envelope).toEqual({ from: 'no-reply@qrlinks.test', to: ['new.person@example.test'] });
    expect(got.from).toBe('"qrlinks" <no-reply@qrlinks.test>');
    expect(got.subject).toBe('Ann "the boss" invited you to Café <Bar> & Grill on qrlinks');
    expect(got.text).toContain(LINK);
    expect(got.text).toContain('Ann "the boss" invited you to join Café <Bar> & Grill on qrlinks as an editor.');
    expect(got.text).toContain('expires on 6 Dec 2026 at 14:05 UTC');
    expect(got.html).toContain(`href="${LINK.replace(/&/g, '&amp;')}"`);
    expect(got.html).toContain('Café &lt;Bar&gt; &amp; Grill');
    expect(got.html).toContain('Ann &quot;the boss&quot;');
    expect(got.html).not.toContain('<Bar>');
    expect(logs.lines().filter((l) => l.level >= 40)).toEqual([]);
  });

  it('delivers the password mails', async () => {
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM }, captureLogs().logger);
    const reset = passwordResetMail({ link: LINK, expiresAt: EXPIRES });
    expect(await mailer.send({ to: 'reset@example.test', ...reset })).toEqual({ delivered: true });
    expect(await mailer.send({ to: 'changed@example.test', ...passwordChangedMail() })).toEqual({ delivered: true });
    const got = await smtp.waitForMail((m) => m.envelope.to.includes('reset@example.test'));
    expect(got.subject).toBe('Reset your qrlinks password');
    expect(got.text).toContain(LINK);
    expect(got.text).toContain('works once and expires on 6 Dec 2026 at 14:05 UTC');
    const changed = await smtp.waitForMail((m) => m.envelope.to.includes('changed@example.test'));
    expect(changed.subject).toBe('Your qrlinks password was changed');
    expect(changed.text).toMatch(/If that was not you, reset your password/);
  });

  it('reports a refusal of the server (550) as not delivered, with its reason, and logs a warning', async () => {
    const logs = captureLogs();
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM }, logs.logger);
    const result = await mailer.send({ to: 'nobody@example.test', subject: 'Hello', text: 'Hi' });
    expect(result).toMatchObject({ delivered: false, logged: false });
    expect(result.delivered === false && !result.logged && result.error).toMatch(/550.*No such user here/);
    const warning = logs.lines().find((l) => l.level === 40);
    expect(warning).toMatchObject({ mail: { to: 'nobody@example.test', subject: 'Hello' }, err: expect.stringMatching(/550/) });
    expect(JSON.stringify(warning)).not.toContain('"text"');
  });

  it('reports a closed port as not delivered', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((r) => closed.close(() => r()));
    const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM }, captureLogs().logger);
    const result = await mailer.send({ to: 'someone@example.test', subject: 'Hello', text: 'Hi' });
    expect(result).toMatchObject({ delivered: false, logged: false, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('makes a subject one line: a name with a line break cannot add a header', async () => {
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM }, captureLogs().logger);
    const mail = invitationMail({
      accountName: 'Evil\r\nBcc: victim@example.test\r\n\r\nInjected body',
      inviterName: 'Mallory\nX-Header: 1',
      role: 'viewer',
      link: LINK,
      expiresAt: EXPIRES,
    });
    expect(await mailer.send({ to: 'injected@example.test', ...mail, subject: `${mail.subject}\r\nBcc: other@example.test` })).toEqual({
      delivered: true,
    });
    const got = await smtp.waitForMail((m) => m.envelope.to.includes('injected@example.test'));
    expect(got.envelope.to).toEqual(['injected@example.test']);
    expect(got.subject).toBe(
      'Mallory X-Header: 1 invited you to Evil Bcc: victim@example.test Injected body on qrlinks Bcc: other@example.test',
    );
    expect(got.headerLines.filter((line) => /^(bcc|x-header)\s*:/i.test(line))).toEqual([]);
    expect(got.text.split('\n')[0]).toBe(
      'Mallory X-Header: 1 invited you to join Evil Bcc: victim@example.test Injected body on qrlinks as a viewer.',
    );
  });

  it('refuses a recipient that is not one plain address, before any connection', async () => {
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM }, captureLogs().logger);
    const before = smtp.received.length;
    for (const to of [
      'a@example.test\r\nBcc: b@example.test',
      'a@example.test\n',
      'a@example.test, b@example.test',
      'a@example.test;b@example.test',
      'Ann <a@example.test>',
      '"a@b"@example.test',
      'no-at-sign',
      '',
    ]) {
      await expect(mailer.send({ to, subject: 'Hi', text: 'Hi' }), JSON.stringify(to)).rejects.toBeInstanceOf(MailAddressError);
    }
    expect(smtp.received.length).toBe(before);
  });
});

describe('a mail server that accepts the connection and never answers', () => {
  const silent = { server: undefined as Awaited<ReturnType<typeof startSilentServer>> | undefined };
  afterEach(() => silent.server?.close());

  it('costs a send its timeout, not more, and the event loop turns meanwhile', async () => {
    silent.server = await startSilentServer();
    const logs = captureLogs();
    const mailer = createMailer({ SMTP_URL: silent.server.url, MAIL_FROM: FROM }, logs.logger, { timeoutMs: 600 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    const result = await mailer.send({ to: 'someone@example.test', subject: 'Hello', text: 'Hi' });
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    expect(silent.server.accepted()).toBe(1);
    expect(result).toMatchObject({ delivered: false, logged: false, error: expect.stringMatching(/greeting|timeout/i) });
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(600 + 1500);
    expect(ticks).toBeGreaterThan(10);
    expect(logs.lines().some((l) => l.level === 40 && l.msg.startsWith('mail not sent'))).toBe(true);
  });

  it("waits 10 s by default: the configured timeouts are set, not nodemailer's minutes", async () => {
    silent.server = await startSilentServer();
    const mailer = createMailer({ SMTP_URL: silent.server.url, MAIL_FROM: FROM }, captureLogs().logger);
    const started = performance.now();
    const result = await mailer.send({ to: 'someone@example.test', subject: 'Hello', text: 'Hi' });
    const elapsed = performance.now() - started;
    expect(result.delivered).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(12_000);
  }, 20_000);
});

describe('mail without SMTP_URL', () => {
  it('writes the whole mail, link included, to the log at info and says so', async () => {
    const logs = captureLogs();
    const config = loadConfig({});
    expect(config.SMTP_URL).toBeUndefined();
    const mailer = createMailer(config, logs.logger);
    const mail = passwordResetMail({ link: LINK, expiresAt: EXPIRES });
    expect(await mailer.send({ to: 'someone@example.test', ...mail })).toEqual({ delivered: false, logged: true });
    const line = logs.lines().find((l) => l.msg.startsWith('mail not sent (no SMTP_URL)'));
    expect(line).toMatchObject({ level: 30, mail: { to: 'someone@example.test', subject: 'Reset your qrlinks password' } });
    expect((line!.mail as { text: string }).text).toContain(LINK);
  });

  it('logs the subject as one line, as it would have been sent', async () => {
    const logs = captureLogs();
    const mailer = createMailer(loadConfig({}), logs.logger);
    await mailer.send({ to: 'someone@example.test', subject: 'Hello\r\nBcc: other@example.test\u2028there', text: 'Hi' });
    expect(logs.lines()[0]).toMatchObject({ mail: { subject: 'Hello Bcc: other@example.test there' } });
  });

  it('still refuses a recipient with a line break', async () => {
    const mailer = createMailer(loadConfig({}), captureLogs().logger);
    await expect(mailer.send({ to: 'a@example.test\r\nBcc: b@example.test', subject: 'Hi', text: 'Hi' })).rejects.toBeInstanceOf(
      MailAddressError,
    );
  });
});

describe('mail settings', () => {
  it('MAIL_FROM defaults to qrlinks <no-reply@localhost>; SMTP_URL must be smtp(s) and is never echoed', () => {
    expect(loadConfig({}).MAIL_FROM).toBe('qrlinks <no-reply@localhost>');
    expect(loadConfig({ SMTP_URL: 'smtps://user:pw@mail.example.test:465' }).SMTP_URL).toBe('smtps://user:pw@mail.example.test:465');
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.test' })).toThrow(
      /^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL$/,
    );
    expect(() => loadConfig({ MAIL_FROM: 'a@b\r\nBcc: c@d' })).toThrow(/MAIL_FROM must be one line/);
  });
});
