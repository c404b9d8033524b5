import { describe, expect, it } from 'vitest';
import { nodeSupportWarning } from '#platform/process/node-support.js';

describe('nodeSupportWarning', () => {
  it('warns on Node 20, which is out of support', () => {
    expect(nodeSupportWarning('20.20.2')).toBe('Node.js 20 is out of support since 2026-04-30; run qrlinks on Node.js 24');
  });

  it('says nothing on the supported majors', () => {
    expect(nodeSupportWarning('22.12.0')).toBeNull();
    expect(nodeSupportWarning('24.11.1')).toBeNull();
  });
});
