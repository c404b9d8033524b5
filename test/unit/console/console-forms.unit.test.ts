/** The Jobs and API keys screens' mapping to and from the API (console/src/forms.ts), API failures in words, and field errors by path. */
import { describe, expect, it } from 'vitest';
import { problemText } from '#console/src/api/signed-in.js';
import { createKeyBody, jobFile, keyStatus, unfinished, type Scope } from '#console/src/forms.js';
import { fieldErrorsOf, unplacedErrors } from '#console/src/fields/errors.js';

const scopes = (...s: Scope[]) => new Set<Scope>(s);

describe('the create-key form as the API body', () => {
  it('trims the name and sends the chosen scopes; no expiry is left out', () => {
    expect(createKeyBody('  Shop sync ', scopes('links.read', 'bulk.create'), '')).toEqual({
      body: { name: 'Shop sync', scopes: ['links.read', 'bulk.create'] },
    });
  });

  it('`all` chosen stands alone, whatever else was ticked before', () => {
    expect(createKeyBody('Admin', scopes('links.read', 'all'), '')).toEqual({ body: { name: 'Admin', scopes: ['all'] } });
  });

  it('reads the expiry in the local time zone and sends it as an instant', () => {
    const local = '2099-05-01T09:30';
    expect(createKeyBody('Later', scopes('cafe.read'), local)).toEqual({
      body: { name: 'Later', scopes: ['cafe.read'], expiresAt: new Date(local).toISOString() },
    });
  });

  it('says what to fix: no name, no scope, an expiry in the past or not a date', () => {
    expect(createKeyBody(' ', scopes('all'), '')).toEqual({ error: expect.stringContaining('name') });
    expect(createKeyBody('A', scopes(), '')).toEqual({ error: 'Choose at least one scope.' });
    expect(createKeyBody('A', scopes('all'), '2001-01-01T00:00')).toEqual({ error: 'The expiry must be in the future.' });
    expect(createKeyBody('A', scopes('all'), 'soon')).toEqual({ error: 'The expiry is not a date and time.' });
  });
});

describe('jobs and keys as the screens show them', () => {
  it('a completed job with downloadUrl or qrZipUrl has a file; others have none', () => {
    const done = { id: 'j1', state: 'completed' as const };
    expect(jobFile({ ...done, result: { downloadUrl: 'http://x/api/v1/jobs/j1/download', fileName: 'scans.csv' } })).toEqual({
      fileName: 'scans.csv',
    });
    expect(jobFile({ ...done, result: { qrZipUrl: 'http://x/api/v1/jobs/j1/download', fileName: 'qr-codes.zip' } })).toEqual({
      fileName: 'qr-codes.zip',
    });
    expect(jobFile({ ...done, result: { imported: 12 } })).toBeNull();
    expect(jobFile({ id: 'j1', state: 'active', result: { downloadUrl: 'u' } })).toBeNull();
    expect([unfinished({ state: 'queued' }), unfinished({ state: 'active' }), unfinished({ state: 'failed' })]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('a key is revoked, expired or active', () => {
    expect(keyStatus({ active: false, revoked_at: '2026-01-01T00:00:00Z' })).toBe('revoked');
    expect(keyStatus({ active: false, revoked_at: null })).toBe('expired');
    expect(keyStatus({ active: true, revoked_at: null })).toBe('active');
  });

  it('an error answer in words: its message and the fields it names', () => {
    expect(problemText(400, { message: 'Validation failed', errors: [{ path: 'expiresAt', message: 'Must be in the future' }] })).toBe(
      'Validation failed: expiresAt: Must be in the future',
    );
    expect(problemText(409, { message: 'This account has 20 active keys already' })).toBe('This account has 20 active keys already');
    expect(problemText(502, undefined)).toBe('The server answered 502.');
    expect(problemText(401, { message: 'Unauthorized' })).toBe('The key is no longer accepted; sign out and sign in with a valid key.');
  });
});

describe('API field errors by path', () => {
  it('keys the first message for each path, and lists what no field shows', () => {
    const errors = fieldErrorsOf({
      message: 'Validation failed',
      errors: [
        { path: 'data.files.0.fileId', message: 'No such file' },
        { path: 'data.files.0.fileId', message: 'second' },
        { path: 'linkConfigurations.customUrl', message: 'Taken' },
        { nonsense: true },
      ],
    });
    expect(errors).toEqual({ 'data.files.0.fileId': 'No such file', 'linkConfigurations.customUrl': 'Taken' });
    expect(unplacedErrors(errors, (path) => path.startsWith('data.'))).toEqual(['linkConfigurations.customUrl: Taken']);
    // The API writes indexes in brackets; the form's keys are dotted.
    expect(
      fieldErrorsOf({
        errors: [
          { path: 'data.pdfs[2].label', message: 'Required' },
          { path: 'data.links[10]', message: 'x' },
        ],
      }),
    ).toEqual({ 'data.pdfs.2.label': 'Required', 'data.links.10': 'x' });
    expect(fieldErrorsOf(null)).toEqual({});
    expect(fieldErrorsOf({ errors: 'x' })).toEqual({});
  });
});
