/**
 * The visibility heat map (docs/cli-contract.md: ranks 1-3, 4-10, 11-20, not ranking). The pure parts
 * (band of a rank, grid arrangement, stats) are separate from drawing so they can be
 * unit-tested without a terminal.
 */
import type { Styles } from './styles.js';
import { displayWidth } from './width.js';

export type Band = 'top3' | 'top10' | 'top20' | 'none';

export interface Point {
  lat: number;
  lng: number;
  rank: number | null;
}

/** A placed grid point: row 0 is the northernmost, column 0 the westernmost. */
export interface Cell extends Point {
  row: number;
  col: number;
}

export function bandOf(rank: number | null | undefined): Band {
  if (rank === null || rank === undefined || !Number.isFinite(rank) || rank < 1) return 'none';
  if (rank <= 3) return 'top3';
  if (rank <= 10) return 'top10';
  if (rank <= 20) return 'top20';
  return 'none';
}

export const BAND_LABELS: Record<Band, string> = {
  top3: '1-3',
  top10: '4-10',
  top20: '11-20',
  none: 'not ranking',
};

/**
 * North up, west left, whatever order the API lists the points in: rows by latitude
 * (highest first), each row by longitude (lowest first). A square grid is cut into rows
 * of √n points after sorting by latitude, so a row whose latitudes differ by float noise
 * still stays together; anything else is grouped by latitude rounded to 1e-6°.
 */
export function arrangeGrid<P extends Point>(points: readonly P[]): (P & { row: number; col: number })[][] {
  const byLat = [...points].sort((a, b) => b.lat - a.lat || a.lng - b.lng);
  const n = Math.round(Math.sqrt(points.length));
  let rows: P[][];
  if (n * n === points.length && n > 0) {
    rows = Array.from({ length: n }, (_, i) => byLat.slice(i * n, (i + 1) * n));
  } else {
    const groups = new Map<string, P[]>();
    for (const p of byLat) {
      const key = p.lat.toFixed(6);
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    rows = [...groups.values()];
  }
  return rows.map((row, r) => [...row].sort((a, b) => a.lng - b.lng).map((p, c) => ({ ...p, row: r, col: c })));
}

/** The centre cell (the business location) of an arranged grid. */
export function centreOf(grid: readonly (readonly unknown[])[]): { row: number; col: number } {
  const row = Math.floor(grid.length / 2);
  return { row, col: Math.floor((grid[row]?.length ?? 0) / 2) };
}

export interface GridStats {
  points: number;
  ranking: number;
  /** Mean rank over the points where the business ranks; null when it ranks nowhere. */
  averageRank: number | null;
  top3: number;
  /** Share of all points (ranking or not) that rank 1-3, 0..1. */
  top3Share: number;
}

export function gridStats(points: readonly Point[]): GridStats {
  const ranked = points.filter((p) => bandOf(p.rank) !== 'none').map((p) => p.rank as number);
  const top3 = ranked.filter((r) => r <= 3).length;
  return {
    points: points.length,
    ranking: ranked.length,
    averageRank: ranked.length ? ranked.reduce((a, b) => a + b, 0) / ranked.length : null,
    top3,
    top3Share: points.length ? top3 / points.length : 0,
  };
}

/** Background colour per band; grey for "not ranking". */
export function paintBand(s: Styles, band: Band, text: string): string {
  switch (band) {
    case 'top3':
      return s.bgGreen.black(text);
    case 'top10':
      return s.bgYellow.black(text);
    case 'top20':
      return s.bgRed.white(text);
    default:
      return s.bgGray.white(text);
  }
}

/** One cell, 4 columns wide: ` 7 `, `12`, `--` for not ranking; the centre in brackets. */
export function cellLabel(rank: number | null, centre: boolean): string {
  const inner = bandOf(rank) === 'none' ? '--' : String(rank).padStart(2);
  return centre ? `[${inner}]` : ` ${inner} `;
}

/** Draws an arranged grid, one text line per row, with an N marker above. */
export function drawGrid(grid: readonly (readonly Cell[])[], s: Styles): string[] {
  const centre = centreOf(grid);
  const width = (grid[0]?.length ?? 0) * 4;
  const lines = [' '.repeat(Math.max(0, Math.floor(width / 2) - 1)) + s.bold('N')];
  for (const row of grid) {
    lines.push(row.map((c) => paintBand(s, bandOf(c.rank), cellLabel(c.rank, c.row === centre.row && c.col === centre.col))).join(''));
  }
  return lines;
}

/** The legend under the maps. */
export function legend(s: Styles, width = Infinity): string {
  const where = '[ ] business location, north up';
  // Without colour the swatches would be blank: the numbers carry the rank, so say that.
  const bands =
    s.level === 0
      ? 'ranks 1-3, 4-10, 11-20 (colour off); -- not ranking'
      : (['top3', 'top10', 'top20', 'none'] as Band[]).map((b) => `${paintBand(s, b, '    ')} ${BAND_LABELS[b]}`).join('  ');
  // Two lines on a terminal too narrow for one (docs/cli-contract.md "At a terminal": output fits).
  return displayWidth(bands) + 3 + where.length <= width ? `${bands}   ${where}` : `${bands}\n${where}`;
}
