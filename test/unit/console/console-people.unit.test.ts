/**
 * The console's way in, its pure parts: refusals in words at the right field, waits in words,
 * initials for the avatar, the pages outside the shell by route, an invitation in a sentence,
 * a new password's first check, and which answers mean a session has ended.
 */
import { describe, expect, it } from 'vitest';
import type { Refusal } from '#console/src/api/people.js';
import { noticeSessionAnswer, onSessionEnded } from '#console/src/api/session-ended.js';
import { invitationSentence } from '#console/src/doors/invitation.js';
import { formProblem, signInProblem, waitInWords } from '#console/src/doors/messages.js';
import { newPasswordProblem } from '#console/src/doors/passwords.js';
import { doorOf } from '#console/src/doors/routes.js';
import { initials } from '#console/src/people/initials.js';

const refusal = (status: number, code: string | null, more: Partial<Refusal> = {}): Refusal => ({
  ok: false,
  status,
  code,
  message: null,
  retryAfterSeconds: null,
  fields: {},
  ...more,
});

describe('console: sign-in refusals in words', () => {
  it('a wrong password is said at the password field; a wrong code at the code field', () => {
    expect(signInProblem(refusal(401, 'invalid_credentials'), 'password')).toEqual({
      field: 'password',
      message: expect.stringContaining('do not match'),
    });
    expect(signInProblem(refusal(401, 'totp_invalid'), 'code').field).toBe('code');
  });

  it('too many attempts says how long to wait, from Retry-After', () => {
    const { message } = signInProblem(refusal(429, 'sign_in_attempts_exceeded', { retryAfterSeconds: 600 }), 'password');
    expect(message).toContain('in about 10 minutes');
    expect(waitInWords(1)).toBe('in 1 second');
    expect(waitInWords(59)).toBe('in 59 seconds');
    expect(waitInWords(61)).toBe('in about 2 minutes');
    expect(waitInWords(7200)).toBe('in about 2 hours');
  });

  it('a request from another site, or no server, is said in words', () => {
    expect(signInProblem(refusal(403, 'csrf_rejected'), 'password').message).toContain('another site');
    expect(signInProblem(refusal(0, null), 'password').message).toContain('cannot be reached');
    expect(signInProblem(refusal(400, null, { fields: { email: 'Too long' } }), 'password')).toEqual({
      field: 'email',
      message: 'Check the email address: Too long.',
    });
  });

  it('the other pages put a known code at its field, a 400 at its fields, anything else at the form', () => {
    expect(formProblem(refusal(401, 'invalid_credentials'), ['password'])).toEqual({
      password: expect.stringContaining('not the password'),
    });
    expect(formProblem(refusal(404, 'invitation_not_found'), ['password'])).toEqual({
      form: expect.stringContaining('not valid any more'),
    });
    expect(formProblem(refusal(400, 'password_too_weak', { fields: { password: 'Use at least 10 characters' } }), ['password'])).toEqual({
      password: 'Use at least 10 characters.',
    });
    expect(formProblem(refusal(500, null, { message: 'Internal Server Error' }), ['password'])).toEqual({ form: 'Internal Server Error.' });
  });
});

describe('console: the person in the header and the pages outside the shell', () => {
  it('initials come from the first and last names, else the email', () => {
    expect(initials('Ana Silva', 'ana@x.example')).toBe('AS');
    expect(initials('  maria da  luz ', 'm@x.example')).toBe('ML');
    expect(initials('Zoë', 'z@x.example')).toBe('Z');
    expect(initials(null, 'bruno@x.example')).toBe('B');
    expect(initials('', '')).toBe('?');
  });

  it('a door is found by its path with its token; other routes are the shell’s', () => {
    expect(doorOf('/join?token=abc')).toEqual({ door: 'join', token: 'abc' });
    expect(doorOf('/setup')).toEqual({ door: 'setup', token: '' });
    expect(doorOf('/reset-password?token=x%2By')).toEqual({ door: 'reset-password', token: 'x+y' });
    expect(doorOf('/forgot-password')).toEqual({ door: 'forgot-password', token: '' });
    expect(doorOf('/links')).toBeNull();
    expect(doorOf('/joined')).toBeNull();
  });

  it('an invitation reads as a sentence, with or without who sent it', () => {
    expect(invitationSentence({ inviterName: 'Ana', accountName: 'Aroma Lisboa', role: 'editor' })).toBe(
      'Ana invited you to Aroma Lisboa as an editor',
    );
    expect(invitationSentence({ inviterName: null, accountName: 'Aroma', role: 'viewer' })).toBe('You are invited to Aroma as a viewer');
  });

  it('a new password needs 10 characters, counted as a person counts them', () => {
    expect(newPasswordProblem('')).toBe('Choose a password.');
    expect(newPasswordProblem('short')).toContain('this one has 5');
    expect(newPasswordProblem('🙂🙂🙂🙂🙂🙂🙂🙂🙂')).toContain('this one has 9');
    expect(newPasswordProblem('ten chars!')).toBeNull();
  });

  it('only a 401 unauthorized ends the session; a wrong password in a form does not', () => {
    let ended = 0;
    const stop = onSessionEnded(() => ended++);
    noticeSessionAnswer(401, 'invalid_credentials');
    noticeSessionAnswer(403, 'forbidden');
    noticeSessionAnswer(200, undefined);
    expect(ended).toBe(0);
    noticeSessionAnswer(401, 'unauthorized');
    noticeSessionAnswer(401, undefined);
    expect(ended).toBe(2);
    stop();
    noticeSessionAnswer(401, 'unauthorized');
    expect(ended).toBe(2);
  });
});
