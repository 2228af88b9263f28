/**
 * Repeat loops and load sizes: `npm test` runs them small, `npm run test:soak` (CR_SOAK=1)
 * at full size (test/README.md "Soak sizes"). A small run still exercises every path the
 * full one does (a crash, a fold, a restart); the full one hunts for the rare interleaving.
 */
export const SOAK = process.env.CR_SOAK === '1';

/** `quick` in `npm test`, `full` under CR_SOAK=1. */
export const soak = <T>(quick: T, full: T): T => (SOAK ? full : quick);
