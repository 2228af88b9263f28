import { describe, expect, it } from 'vitest';
import { parseWhen, requireFuture } from '../../src/when.js';
import { UsageError } from '../../src/errors.js';

const NOW = new Date('2026-11-22T10:00:00Z');

describe('parseWhen', () => {
  it.each([
    ['+30m', '2026-11-22T10:30:00.000Z'],
    ['+2h', '2026-11-22T12:00:00.000Z'],
    ['+1d', '2026-11-23T10:00:00.000Z'],
    ['+90M', '2026-11-22T11:30:00.000Z'],
  ])('%s is relative to now', (input, expected) => {
    expect(parseWhen(input, NOW).toISOString()).toBe(expected);
  });

  it.each([
    ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T09:00:00+02:00', '2026-12-01T07:00:00.000Z'],
    ['2026-12-01T09:00Z', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T09:00:00.250-05:00', '2026-12-01T14:00:00.250Z'],
  ])('ISO %s', (input, expected) => {
    expect(parseWhen(input, NOW).toISOString()).toBe(expected);
  });

  it.each(['tomorrow', '+2x', '30m', '+', '2026-12-01', '2026-13-45T99:00:00Z', '+0h', ''])('refuses %j with a usage error', (input) => {
    expect(() => parseWhen(input, NOW)).toThrow(UsageError);
  });

  it('refuses a date-time without a zone, with a hint', () => {
    try {
      parseWhen('2026-12-01T09:00:00', NOW);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toMatch(/no time zone/);
      expect((e as UsageError).hint).toMatch(/Z/);
    }
  });
});

describe('requireFuture', () => {
  it('accepts a time after now', () => {
    const at = new Date('2026-11-22T10:00:01Z');
    expect(requireFuture(at, NOW, 'x')).toBe(at);
  });
  it.each(['2026-11-22T10:00:00Z', '2026-11-22T09:59:59Z', '2020-01-01T00:00:00Z'])('refuses %s (not strictly in the future)', (iso) => {
    expect(() => requireFuture(new Date(iso), NOW, iso)).toThrow(/in the past/);
  });
});
