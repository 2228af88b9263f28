import { describe, expect, it } from 'vitest';
import { liveLine, waitStatus } from '../../src/io/live-line.js';
import { displayWidth } from '../../src/render/width.js';
import { secondsLeft } from '../../src/bulk/progress.js';

describe('the bulk live line', () => {
  const wait = { seconds: 42, at: '14:03' };

  it('fits every width, short of the last column, and keeps the seconds', () => {
    for (let width = 8; width <= 200; width++) {
      const line = liveLine({ value: 3, total: 1200, wait }, width);
      expect(displayWidth(line), `${width}: ${line}`).toBeLessThan(width);
      expect(line, `${width}`).toContain('42 s');
      expect(displayWidth(liveLine({ value: 3, total: 1200 }, width))).toBeLessThanOrEqual(Math.max(width - 1, '3/1200 rows'.length));
    }
  });

  it('gives way in order: the bar to its narrowest, then the words, then the reset time, then the bar', () => {
    expect(liveLine({ value: 5, total: 10, wait }, 200)).toMatch(/^█{20}░{20} 5\/10 rows \| rate limit reached; waiting 42 s for the window to reset \(at 14:03\)$/);
    expect(liveLine({ value: 5, total: 10, wait }, 80)).toMatch(/^[█░]+ 5\/10 rows \| rate limit; waiting 42 s \(reset at 14:03\)$/);
    expect(liveLine({ value: 5, total: 10, wait }, 45)).toMatch(/^[█░]{10,} 5\/10 rows \| waiting 42 s$/);
    expect(waitStatus(42, '14:03', 5)).toBe('42 s');
  });

  it('at 30 columns the bar goes before the word "waiting"; the last form with the count is `waiting N s`', () => {
    const long = { seconds: 3589, at: '15:00' };
    expect(liveLine({ value: 3, total: 8, wait: long }, 30)).toBe('3/8 rows | waiting 3589 s');
    expect(liveLine({ value: 3, total: 8, wait: long }, 20)).toBe('waiting 3589 s');
  });
});

describe('the countdown', () => {
  it('starts at the window, not one above it: a reset 3600.4 s away shows 3600 s', () => {
    expect(secondsLeft(1_000_000 + 3_600_400, 1_000_000)).toBe(3600);
    expect(secondsLeft(1_000_000 - 5, 1_000_000)).toBe(0);
  });
});
