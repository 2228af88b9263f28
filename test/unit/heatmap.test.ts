import { describe, expect, it } from 'vitest';
import { arrangeGrid, bandOf, cellLabel, centreOf, drawGrid, gridStats, paintBand, type Point } from '../../src/render/heatmap.js';
import { styles } from '../../src/render/styles.js';

describe('bandOf (colour bands)', () => {
  it.each([
    [1, 'top3'],
    [3, 'top3'],
    [4, 'top10'],
    [10, 'top10'],
    [11, 'top20'],
    [20, 'top20'],
    [null, 'none'],
    [undefined, 'none'],
    [0, 'none'],
    [21, 'none'],
  ] as const)('%s → %s', (rank, band) => {
    expect(bandOf(rank)).toBe(band);
  });

  it('paints each band in its colour (green, yellow, red, grey)', () => {
    const s = styles(true);
    // ANSI background codes: 42 green, 43 yellow, 41 red, 100 bright black (grey).
    expect(paintBand(s, 'top3', 'x')).toContain('\u001b[42m');
    expect(paintBand(s, 'top10', 'x')).toContain('\u001b[43m');
    expect(paintBand(s, 'top20', 'x')).toContain('\u001b[41m');
    expect(paintBand(s, 'none', 'x')).toContain('\u001b[100m');
    expect(paintBand(styles(false), 'top3', 'x')).toBe('x');
  });
});

/** A 9×9 grid, listed south-east first (the reverse of display order), rank = row*9+col+1. */
function grid9(): Point[] {
  const pts: Point[] = [];
  for (let r = 8; r >= 0; r--) for (let c = 8; c >= 0; c--) pts.push({ lat: 40 + (8 - r) * 0.05 + (c % 2) * 1e-9, lng: -74 + c * 0.06, rank: r * 9 + c + 1 > 20 ? null : r * 9 + c + 1 });
  return pts;
}

describe('arrangeGrid', () => {
  it('puts the highest latitude first and the lowest longitude first, whatever the input order', () => {
    const g = arrangeGrid(grid9());
    expect(g).toHaveLength(9);
    expect(g.every((row) => row.length === 9)).toBe(true);
    expect(g[0]![0]!.rank).toBe(1);
    expect(g[0]![8]!.rank).toBe(9);
    expect(g[1]![0]!.rank).toBe(10);
    expect(g[0]![0]!.lat).toBeGreaterThan(g[8]![0]!.lat);
    expect(g[0]![0]!.lng).toBeLessThan(g[0]![8]!.lng);
    expect(g[4]![4]).toMatchObject({ row: 4, col: 4 });
    expect(centreOf(g)).toEqual({ row: 4, col: 4 });
  });

  it('groups a non-square list by latitude', () => {
    const g = arrangeGrid([
      { lat: 1, lng: 2, rank: 1 },
      { lat: 2, lng: 1, rank: 2 },
      { lat: 1, lng: 1, rank: 3 },
    ]);
    expect(g.map((r) => r.map((c) => c.rank))).toEqual([[2], [3, 1]]);
  });
});

describe('gridStats', () => {
  it('averages ranking points and shares top-3 over all points', () => {
    const st = gridStats([
      { lat: 0, lng: 0, rank: 1 },
      { lat: 0, lng: 1, rank: 5 },
      { lat: 1, lng: 0, rank: null },
      { lat: 1, lng: 1, rank: 3 },
    ]);
    expect(st).toEqual({ points: 4, ranking: 3, averageRank: 3, top3: 2, top3Share: 0.5 });
  });
  it('has no average when nothing ranks', () => {
    expect(gridStats([{ lat: 0, lng: 0, rank: null }]).averageRank).toBeNull();
  });
});

describe('drawing', () => {
  it('marks the centre and not-ranking cells', () => {
    expect(cellLabel(7, false)).toBe('  7 ');
    expect(cellLabel(12, true)).toBe('[12]');
    expect(cellLabel(null, false)).toBe(' -- ');
    const lines = drawGrid(arrangeGrid(grid9()), styles(false));
    expect(lines).toHaveLength(10);
    expect(lines[0]!.trim()).toBe('N');
    expect(lines[1]).toBe('  1   2   3   4   5   6   7   8   9 ');
    expect(lines[5]).toContain('[--]');
  });
});

describe('legend', () => {
  it('names every band, in colour or in words', async () => {
    const { legend } = await import('../../src/render/heatmap.js');
    const coloured = legend(styles(true));
    for (const label of ['1-3', '4-10', '11-20', 'not ranking']) expect(coloured).toContain(label);
    expect(legend(styles(false))).toMatch(/^ranks 1-3, 4-10, 11-20 \(colour off\); -- not ranking/);
  });
});
