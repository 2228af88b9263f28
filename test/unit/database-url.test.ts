import { describe, expect, it } from 'vitest';
import { checkDatabaseUrl, redactUrl, shownStore } from '../../src/config/store-url.js';
import { UsageError } from '../../src/errors.js';

/** How a database URL is checked and shown (src/config/store-url.ts, docs/shared-sandbox.md "Secrets"). */
describe('database URLs', () => {
  it('shows a readable URL with its password and secret parameters as ***', () => {
    expect(redactUrl('postgres://cr:p%40ss%23w%2Frd%251@db.example:5432/cr')).toBe('postgres://cr:***@db.example:5432/cr');
    expect(redactUrl('postgresql://cr@db/cr?sslmode=require&password=hunter2&sslpassword=k3y')).toBe('postgresql://cr@db/cr?sslmode=require&password=***&sslpassword=***');
    expect(shownStore('./store.json')).toBe('./store.json');
    expect(shownStore(' postgres://cr:secret@db/cr')).toBe('postgres://cr:***@db/cr');
  });

  it.each([
    ['a raw #', 'postgres://cr:p@ss#w/rd%1@db:5432/cr', 'has a #'],
    ['two @', 'postgres://cr:p@ss@db:5432/cr', 'more than one @'],
    ['an @ after a /', 'postgres://cr:pa/ss@db:5432/cr', 'comes after a / or ?'],
    ['a bad %', 'postgres://cr:pa%zzss@db:5432/cr', 'starts no percent-encoded character'],
    ['no URL at all', 'postgres://cr:pa ss@[db/cr', 'not a URL'],
  ])('refuses a password with %s, showing nothing after the user name', (_what, url, problem) => {
    let err: unknown;
    try {
      checkDatabaseUrl(url);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`the store URL postgres://cr… cannot be read: ${(err as Error).message.split(': ').slice(1).join(': ')}`);
    expect((err as Error).message).toContain(problem);
    expect(redactUrl(url)).toBe('postgres://cr…');
    for (const piece of ['ss', 'rd', 'zz']) expect((err as Error).message.split('cannot be read')[0]).not.toContain(piece);
  });

  it('shows nothing of a query parameter when the URL is refused', () => {
    for (const url of ['postgres://127.0.0.1/db?password=Qz1@Qz2', 'postgres://127.0.0.1/db?sslpassword=Qz1/Qz2@x', 'postgres://db:5432/x?password=Qz1#Qz2']) {
      expect(() => checkDatabaseUrl(url)).toThrow(UsageError);
      expect(redactUrl(url)).not.toContain('Qz');
    }
    expect(redactUrl('postgres://127.0.0.1/db?password=Qz1@Qz2')).toBe('postgres://127.0.0.1…');
  });

  it('takes a URL without a password, or with an encoded one, as it is', () => {
    expect(checkDatabaseUrl(' postgres://cr@127.0.0.1:5432/cr ')).toBe('postgres://cr@127.0.0.1:5432/cr');
    expect(checkDatabaseUrl('postgres://cr:p%40ss@db/cr?sslmode=verify-full')).toBe('postgres://cr:p%40ss@db/cr?sslmode=verify-full');
    expect(redactUrl('postgres://db:5432/cr#x')).toBe('postgres://db:5432…');
  });
});
