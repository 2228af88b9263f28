import { describe, expect, it } from 'vitest';
import { maskKey, redactKeys } from '../../src/config/redact.js';
import { formatMoney, formatDateHint, daysFromToday, relativeDays, formatDateTimeHint } from '../../src/render/format.js';
import { backoffDelay, isRetryableStatus, MAX_BACKOFF_MS, RETRY_ATTEMPTS } from '../../src/http/retry.js';
import { render, table } from '../../src/render/output.js';
import type { View } from '../../src/render/view.js';
import { ApiError, AuthMissingError, LocalError, NetworkError, ResponseError, UsageError, InterruptedError, exitCodeOf } from '../../src/errors.js';
import { maxHeaderSize } from 'node:http';
import { describeNetworkFailure, isMalformedAnswer } from '../../src/http/network-errors.js';
import { colorEnabled } from '../../src/io/streams.js';
import { commandWord, rootProgram, valueFlagsOf } from '../../src/cli.js';
import { testIO } from '../helpers/io.js';
import { makeKey } from '../helpers/tmp.js';

const KEY = makeKey('1a2b', '9f0e', 'f');

describe('redact: maskKey', () => {
  it('masks a cr_ key as cr_<4>…<4>', () => {
    expect(maskKey(KEY)).toBe('cr_1a2b…9f0e');
  });
  it('never returns the key or most of it for other shapes: less the shorter it is', () => {
    expect(maskKey('short')).toBe('… (5 chars)');
    // A 12-character key showed 8 of its 12 characters.
    expect(maskKey('cr_123456789')).toBe('cr_… (12 chars)');
    expect(maskKey('cr_0123456789abcdef')).toBe('cr_… (19 chars)');
    const odd = 'sk-live-abcdefghijklmnop';
    expect(maskKey(odd)).toBe('sk…op');
    const long = `sk-${'x'.repeat(60)}tail`;
    expect(maskKey(long)).toBe('sk-x…tail');
    for (const k of [odd, long, 'cr_0123456789abcdefghij']) expect(maskKey(k).replace('…', '').length).toBeLessThanOrEqual(Math.min(8, k.length / 5));
  });
});

describe('redact: redactKeys', () => {
  it('replaces every whole key in free text', () => {
    const other = makeKey('dead', 'beef', '9');
    const text = `GET https://x/api?key=${KEY} failed; body {"k":"${other}"} and again ${KEY}.`;
    const out = redactKeys(text);
    expect(out).toBe(`GET https://x/api?key=cr_1a2b…9f0e failed; body {"k":"cr_dead…beef"} and again cr_1a2b…9f0e.`);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(other);
  });
  it('leaves text without keys untouched (short cr_ strings too)', () => {
    expect(redactKeys('cr_abc and nothing else')).toBe('cr_abc and nothing else');
    expect(redactKeys('')).toBe('');
  });
});

describe('format: formatMoney', () => {
  it('USD cents → $12,345.67', () => {
    expect(formatMoney(1234567, 'USD')).toBe('$12,345.67');
    expect(formatMoney(0, 'usd')).toBe('$0.00');
    expect(formatMoney(-500, 'USD')).toBe('-$5.00');
  });
  it('EUR', () => {
    expect(formatMoney(1234567, 'EUR')).toBe('€12,345.67');
  });
  it('JPY (no minor digits shown)', () => {
    expect(formatMoney(1234567, 'JPY')).toBe('¥12,346');
  });
  it('an unknown currency code → plain amount and the code', () => {
    expect(formatMoney(1234567, 'xyz!')).toBe('12,345.67 XYZ!');
  });
  it('no currency (unknown to the CLI): a plain amount, no guessed symbol', () => {
    expect(formatMoney(100, '')).toBe('1.00');
    expect(formatMoney(1234567, null)).toBe('12,345.67');
  });
});

describe('format: dates', () => {
  const now = new Date('2026-11-22T15:00:00Z');
  it('formatDateHint: today, tomorrow, yesterday, in N days, N days ago (overdue)', () => {
    expect(formatDateHint('2026-11-22', now)).toBe('2026-11-22 (today)');
    expect(formatDateHint('2026-11-23', now)).toBe('2026-11-23 (tomorrow)');
    expect(formatDateHint('2026-11-21', now)).toBe('2026-11-21 (yesterday)');
    expect(formatDateHint('2026-12-01', now)).toBe('2026-12-01 (in 9 days)');
    expect(formatDateHint('2026-11-12', now)).toBe('2026-11-12 (10 days ago)');
  });
  it('formatDateHint takes the date part of a date-time, and "-" for none', () => {
    expect(formatDateHint('2026-12-01T23:59:00Z', now)).toBe('2026-12-01 (in 9 days)');
    expect(formatDateHint(null, now)).toBe('-');
    expect(formatDateHint(undefined, now)).toBe('-');
    expect(formatDateHint('soon', now)).toBe('soon');
  });
  it('counts calendar days in UTC, whatever the hour', () => {
    expect(daysFromToday('2026-11-23', new Date('2026-11-22T23:59:59Z'))).toBe(1);
    expect(daysFromToday('2026-11-22', new Date('2026-11-22T00:00:00Z'))).toBe(0);
    expect(daysFromToday('2027-01-01', new Date('2026-12-31T12:00:00Z'))).toBe(1);
    expect(relativeDays(-2)).toBe('2 days ago');
  });
  it('formatDateTimeHint', () => {
    expect(formatDateTimeHint('2026-11-22T17:00:00Z', now)).toBe('2026-11-22 17:00 UTC (in 2 hours)');
    expect(formatDateTimeHint('2026-11-22T14:55:00Z', now)).toBe('2026-11-22 14:55 UTC (5 minutes ago)');
  });
});

describe('retry: policy and backoff bounds', () => {
  it('3 attempts; only 502/503/504 are retryable', () => {
    expect(RETRY_ATTEMPTS).toBe(3);
    for (const s of [502, 503, 504]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [200, 400, 401, 404, 429, 500, 501, 505]) expect(isRetryableStatus(s)).toBe(false);
  });
  it('delay is between 50% and 100% of base·2^(attempt-1)', () => {
    for (const attempt of [1, 2, 3]) {
      const step = 100 * 2 ** (attempt - 1);
      expect(backoffDelay(attempt, 100, () => 0)).toBe(step / 2);
      expect(backoffDelay(attempt, 100, () => 0.999999)).toBe(step);
      for (let i = 0; i < 200; i++) {
        const d = backoffDelay(attempt, 100);
        expect(d).toBeGreaterThanOrEqual(step / 2);
        expect(d).toBeLessThanOrEqual(step);
      }
    }
  });
  it('the step stops growing at MAX_BACKOFF_MS, however many tries (--retry takes any count)', () => {
    for (const attempt of [8, 20, 24, 40, 1000]) {
      expect(backoffDelay(attempt, undefined, () => 0.999999)).toBe(MAX_BACKOFF_MS);
      expect(backoffDelay(attempt, undefined, () => 0)).toBe(MAX_BACKOFF_MS / 2);
    }
    expect(MAX_BACKOFF_MS).toBeLessThan(2 ** 31 - 1);
  });
  it('default base is a few hundred ms and grows', () => {
    const first = backoffDelay(1, undefined, () => 1);
    const second = backoffDelay(2, undefined, () => 1);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(1000);
    expect(second).toBe(first * 2);
  });
});

interface Row {
  name: string;
  note: string;
  n: number | null;
}
const rows: Row[] = [
  { name: 'alpha', note: 'has\ttab and\nnewline', n: 1 },
  { name: 'beta', note: 'plain', n: null },
];
const view: View<Row> = {
  rows,
  columns: [
    { header: 'NAME', value: (r) => r.name, style: (t, _r, s) => s.red(t) },
    { header: 'NOTE', value: (r) => r.note },
    { header: 'N', value: (r) => r.n, align: 'right' },
  ],
  empty: 'Nothing here.',
};

describe('output: the render decision', () => {
  it('--json prints the data exactly (2-space JSON), ignoring the view', async () => {
    const io = testIO({ tty: true, color: true });
    const data = { rows: [{ a: 1, extra: { deep: [null] } }], total: 1 };
    await render(io, { json: true, data }, view);
    expect(io.stdout()).toBe(JSON.stringify(data, null, 2) + '\n');
    expect(io.stderr()).toBe('');
  });

  it('--json of an empty list is [] (never null)', async () => {
    const io = testIO();
    await render(io, { json: true, data: [] }, { ...view, rows: [] });
    expect(io.stdout()).toBe('[]\n');
  });

  it('off a terminal: TSV without ANSI, tabs/newlines inside values flattened, null → empty', async () => {
    const io = testIO({ tty: false, color: false });
    await render(io, { json: false, data: rows }, view);
    expect(io.stdout()).toBe('alpha\thas tab and newline\t1\nbeta\tplain\t\n');
    expect(io.stdout()).not.toMatch(/\x1b\[/);
    for (const line of io.stdout().slice(0, -1).split('\n')) expect(line.split('\t')).toHaveLength(3);
  });

  it('off a terminal with colour forced (FORCE_COLOR): the same TSV cells, styled', async () => {
    const io = testIO({ tty: false, color: true });
    await render(io, { json: false, data: rows }, view);
    expect(io.stdout()).toMatch(/\x1b\[/);
    expect(io.stdout().replace(/\x1b\[[0-9;]*m/g, '')).toBe('alpha\thas tab and newline\t1\nbeta\tplain\t\n');
  });

  it('off a terminal with no rows: nothing at all', async () => {
    const io = testIO({ tty: false });
    await render(io, { json: false, data: [] }, { ...view, rows: [] });
    expect(io.stdout()).toBe('');
  });

  it('several views off a terminal: rows of each, in order', async () => {
    const io = testIO({ tty: false });
    await render(io, { json: false, data: {} }, [table(view), table({ ...view, rows: [rows[1]!] })]);
    expect(io.stdout().trimEnd().split('\n')).toHaveLength(3);
  });

  it('several tables in one stream: a tag column tells them apart; totals stay on the terminal', async () => {
    const io = testIO({ tty: false });
    await render(io, { json: false, data: {} }, [table({ ...view, tsvTag: 'a', totals: [rows[0]!] }), table({ ...view, rows: [rows[1]!], tsvTag: 'b' })]);
    expect(io.stdout()).toBe('a\talpha\thas tab and newline\t1\na\tbeta\tplain\t\nb\tbeta\tplain\t\n');
    const tty = testIO({ tty: true, color: false });
    await render(tty, { json: false, data: {} }, table({ ...view, rows: [rows[1]!], totals: [rows[0]!] }));
    expect(tty.stdout()).toMatch(/beta[\s\S]*alpha/);
  });

  it('a block that is no table: its own drawing on a terminal, its TSV rows when piped', async () => {
    const block = { title: 'Map', tsv: () => [['k', 1, '']], draw: () => 'drawn' };
    const piped = testIO({ tty: false });
    await render(piped, { json: false, data: {} }, block);
    expect(piped.stdout()).toBe('k\t1\t\n');
    const tty = testIO({ tty: true, color: false });
    await render(tty, { json: false, data: {} }, block);
    expect(tty.stdout()).toBe('Map\ndrawn\n');
  });

  it('on a terminal: a borderless table with headers; colour only when enabled', async () => {
    const plain = testIO({ tty: true, color: false });
    await render(plain, { json: false, data: rows }, { ...view, title: 'Things', footer: 'showing 2' });
    const out = plain.stdout();
    expect(out).not.toMatch(/\x1b\[/);
    for (const s of ['NAME', 'NOTE', 'alpha', 'beta', 'Things', 'showing 2']) expect(out).toContain(s);
    expect(out).not.toMatch(/[┌─│]/);
    expect(out).toMatch(/^NAME\s+NOTE/m);

    const coloured = testIO({ tty: true, color: true });
    await render(coloured, { json: false, data: rows }, view);
    expect(coloured.stdout()).toMatch(/\x1b\[31malpha\x1b\[39m/);
  });

  it('on a terminal with no rows: the empty message instead of a table', async () => {
    const io = testIO({ tty: true, color: false });
    await render(io, { json: false, data: [] }, { ...view, rows: [] });
    expect(io.stdout()).toBe('Nothing here.\n');
  });
});

describe('errors: one exit-code mapping', () => {
  const api = (s: number) => new ApiError(s, 'm', 'GET', 'u');
  it('maps every class and status', () => {
    expect(exitCodeOf(new UsageError('x'))).toBe(2);
    expect(exitCodeOf(new AuthMissingError())).toBe(3);
    expect(exitCodeOf(api(401))).toBe(3);
    expect(exitCodeOf(api(403))).toBe(4);
    expect(exitCodeOf(api(404))).toBe(5);
    for (const s of [400, 409, 413]) expect(exitCodeOf(api(s))).toBe(6);
    expect(exitCodeOf(api(429))).toBe(7);
    for (const s of [500, 502, 503, 504]) expect(exitCodeOf(api(s))).toBe(8);
    expect(exitCodeOf(new NetworkError('GET', 'u', 'down'))).toBe(8);
    expect(exitCodeOf(new ResponseError('bad'))).toBe(1);
    expect(exitCodeOf(new InterruptedError())).toBe(130);
    expect(exitCodeOf(new LocalError('x'))).toBe(1);
    expect(exitCodeOf(new LocalError('x', 3))).toBe(3);
    expect(exitCodeOf(new Error('boom'))).toBe(1);
  });
  it('ApiError.from: 429 message names the wait in words', () => {
    const e = (ra?: string) => ApiError.from(429, { success: false, error: 'Slow down', code: 'RATE_LIMITED' }, 'GET', 'http://x/y', ra).message;
    expect(e('3600')).toBe('Slow down; retry after 1 hour (GET http://x/y)');
    expect(e('7200')).toBe('Slow down; retry after 2 hours (GET http://x/y)');
    expect(e('90')).toBe('Slow down; retry after 2 minutes (GET http://x/y)');
    expect(e('30')).toBe('Slow down; retry after 30 seconds (GET http://x/y)');
    expect(e(undefined)).toBe('Slow down; retry after a while (GET http://x/y)');
    // An HTTP-date is placed on the local clock by src/http/rate-budget.ts (retryAt); alone, it is not echoed.
    expect(e('Wed, 21 Oct 2099 07:28:00 GMT')).toBe('Slow down; retry after a while (GET http://x/y)');
  });
});

describe('network error wording', () => {
  it('names timeouts, refusals, DNS, resets and TLS', () => {
    expect(describeNetworkFailure({ name: 'TimeoutError' }, 1500)).toBe('Timed out after 1.5 s');
    expect(describeNetworkFailure({ code: 'UND_ERR_HEADERS_TIMEOUT' }, 30000)).toBe('Timed out after 30 s');
    expect(describeNetworkFailure({ cause: { code: 'ECONNREFUSED' } }, 1)).toMatch(/Connection refused/);
    expect(describeNetworkFailure({ code: 'ENOTFOUND' }, 1)).toBe('Host not found');
    expect(describeNetworkFailure({ code: 'ECONNRESET' }, 1)).toMatch(/reset/);
    // Certificate failures: what failed, the code, and what fixes it: trusting a CA only for
    // a certificate no known CA vouches for (docs/install.md "Certificates").
    for (const [code, what, advice] of [
      ['CERT_HAS_EXPIRED', 'has expired', 'must replace the certificate'],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'is not trusted', 'NODE_EXTRA_CA_CERTS'],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'is not trusted', 'NODE_EXTRA_CA_CERTS'],
      ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'is not trusted', 'NODE_EXTRA_CA_CERTS'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed', 'NODE_EXTRA_CA_CERTS'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'another host name', 'use the host name the certificate names'],
    ] as const) {
      const text = describeNetworkFailure({ code }, 1);
      expect(text).toContain(`The server's TLS certificate`);
      expect(text).toContain(what);
      expect(text).toContain(`(${code}). `);
      expect(text).toContain(advice);
      if (advice !== 'NODE_EXTRA_CA_CERTS') expect(text).not.toContain('NODE_EXTRA_CA_CERTS');
    }
    expect(describeNetworkFailure({ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 1)).toBe('TLS error (ERR_SSL_WRONG_VERSION_NUMBER)');
  });

  it("an answer Node's parser refuses is malformed (not retried), headers past the limit too; a cut connection is not", () => {
    // Headers past the limit, as Node names it and as the dispatcher hands it on (undici's name).
    for (const code of [
      'HPE_HEADER_OVERFLOW',
      'UND_ERR_HEADERS_OVERFLOW',
      'HPE_CHUNK_EXTENSIONS_OVERFLOW',
      'HPE_INVALID_HEADER_TOKEN',
      'HPE_INVALID_CHUNK_SIZE',
      'HPE_INVALID_CONTENT_LENGTH',
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      'HPE_INVALID_TRANSFER_ENCODING',
      'HPE_INVALID_STATUS',
      'HPE_INVALID_VERSION',
      'HPE_INVALID_CONSTANT',
      'HPE_CR_EXPECTED',
      'HPE_LF_EXPECTED',
      'HPE_STRICT',
      'HPE_UNEXPECTED_SPACE',
      'HPE_CLOSED_CONNECTION',
    ])
      expect(isMalformedAnswer({ code }), code).toBe(true);
    // A reset or a cut connection may go better next time: retried.
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT']) expect(isMalformedAnswer({ code }), code).toBe(false);
    const limit = maxHeaderSize % 1024 === 0 ? `${maxHeaderSize / 1024} KiB` : `${maxHeaderSize} bytes`;
    for (const code of ['UND_ERR_HEADERS_OVERFLOW', 'HPE_HEADER_OVERFLOW'])
      expect(describeNetworkFailure({ code, message: 'Headers Overflow Error' }, 1)).toBe(
        `The server's answer is not valid HTTP: its headers pass this Node's limit of ${limit} (Headers Overflow); NODE_OPTIONS=--max-http-header-size=BYTES raises it`,
      );
  });
});

describe('colour decision', () => {
  it('--no-color and NO_COLOR win, then FORCE_COLOR, then the terminal', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({}, true, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled({ TERM: 'dumb' }, true)).toBe(false);
  });
});

describe('main: commandWord', () => {
  it('skips global options and their values', async () => {
    const flags = valueFlagsOf(await rootProgram());
    expect(commandWord(['--profile', 'x', '--json', 'finance', 'summary'], flags)).toBe('finance');
    expect(commandWord(['--timeout', '5', '--base-url', 'http://x', 'api', '/p'], flags)).toBe('api');
    expect(commandWord(['--website', 'w', 'crm', 'agents'], flags)).toBe('crm');
    expect(commandWord(['--', 'auth'], flags)).toBe('auth');
    expect(commandWord(['--json'], flags)).toBeUndefined();
  });

  it('the flags that take a value come from the options commander knows', async () => {
    expect([...valueFlagsOf(await rootProgram())].sort()).toEqual(['--base-url', '--jq', '--profile', '--timeout', '--website']);
  });
});
