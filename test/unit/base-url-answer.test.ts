import { describe, expect, it } from 'vitest';
import { baseUrlFromAnswer } from '../../commands/auth/base-url-answer.js';
import { UsageError } from '../../src/errors.js';

describe('the login prompt base URL answer', () => {
  it('a bare host gets https:// and /api/v1; a loopback host http://; a URL is taken as typed', () => {
    expect(baseUrlFromAnswer('cms.example.com')).toBe('https://cms.example.com/api/v1');
    expect(baseUrlFromAnswer('  cms.example.com:8443/ ')).toBe('https://cms.example.com:8443/api/v1');
    expect(baseUrlFromAnswer('127.0.0.1:4010')).toBe('http://127.0.0.1:4010/api/v1');
    expect(baseUrlFromAnswer('localhost:4010')).toBe('http://localhost:4010/api/v1');
    expect(baseUrlFromAnswer('https://cms.example.com')).toBe('https://cms.example.com/api/v1');
    expect(baseUrlFromAnswer('http://cms.example.com/api/v1/')).toBe('http://cms.example.com/api/v1');
  });
  it('what is no base URL is refused as --base-url would be', () => {
    for (const bad of ['', 'ftp://x.example', 'cms.example.com/v2', 'https://bob:pw@cms.example.com']) {
      expect(() => baseUrlFromAnswer(bad), bad).toThrow(UsageError);
    }
  });
  it('a bad host is said in words: a space or a character no host has, or a name over 253 characters', () => {
    expect(() => baseUrlFromAnswer('https://red0;x host')).toThrow('the host "red0;x host" in the answer has the character ";", which no host name has');
    expect(() => baseUrlFromAnswer('cms example.com')).toThrow('has a space');
    expect(() => baseUrlFromAnswer(`${'a'.repeat(5000)}.example`)).toThrow('is 5008 characters long; a host name has at most 253');
    expect(baseUrlFromAnswer(`${'a'.repeat(60)}.example.com`)).toBe(`https://${'a'.repeat(60)}.example.com/api/v1`);
  });
});
