import { describe, expect, it } from 'vitest';
import { hostOfHeader, normaliseHostname } from '#domain/domains/hostname.js';

const SERVICE = ['qr.example.net', 'api.example.net'];
const name = (input: string) => normaliseHostname(input, SERVICE);

describe('a brand domain’s name', () => {
  it('has one stored form: punycode, lower case, no trailing dot, no port', () => {
    for (const input of [
      'Café.Example.COM',
      'café.example.com.',
      'CAFÉ.example.com:443',
      'xn--caf-dma.example.com',
      ' xn--CAF-dma.Example.com. ',
    ]) {
      expect(name(input), input).toEqual({ hostname: 'xn--caf-dma.example.com' });
    }
    expect(name('menu.aroma.pt')).toEqual({ hostname: 'menu.aroma.pt' });
  });

  it('is refused, with the reason, when it cannot be an account’s', () => {
    const cases: Array<[string, string]> = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['*.example.com', 'wildcard'],
      ['1.2.3.4', 'ip'],
      ['1.2.3.4:80', 'ip'],
      ['[::1]', 'ip'],
      ['::1', 'ip'],
      ['2001:db8::1', 'ip'],
      ['example.123', 'ip'],
      ['localhost', 'localhost'],
      ['shop.localhost', 'localhost'],
      ['intranet', 'single-label'],
      ['-bad.example.com', 'invalid'],
      ['under_score.example.com', 'invalid'],
      ['a..b.com', 'invalid'],
      ['with space.example.com', 'invalid'],
      [`${'a'.repeat(64)}.example.com`, 'too-long'],
      [`${'abcdefghi.'.repeat(26)}com`, 'too-long'],
      ['qr.example.net', 'service-host'],
      ['Menu.QR.example.net.', 'service-host'],
      ['api.example.net:8443', 'service-host'],
    ];
    for (const [input, problem] of cases) expect(name(input), JSON.stringify(input)).toEqual({ problem });
  });

  it('is not confused with a name that merely ends like the service’s', () => {
    expect(name('notqr.example.net')).toEqual({ hostname: 'notqr.example.net' });
  });
});

describe('the name a Host header asks for', () => {
  it('drops the port, the trailing dot and case, and spells unicode in punycode', () => {
    expect(hostOfHeader('Café.Example.com.:8080')).toBe('xn--caf-dma.example.com');
    expect(hostOfHeader('menu.aroma.pt')).toBe('menu.aroma.pt');
    expect(hostOfHeader('[::1]:3001')).toBeNull();
    expect(hostOfHeader(undefined)).toBeNull();
  });
});
