import { Chalk, type ChalkInstance } from 'chalk';

// chalk detects the terminal's colours when it loads (supports-color: node:tty, node:os and
// the environment), which cr never uses: the level comes from the IO's own decision. So the
// output paths that print no colour (--json, plain TSV) do not import this module; they
// import() it when a terminal or FORCE_COLOR asks for styles (src/render/output.ts, block.ts).

/** The colour palette; every helper returns plain text when colour is off. */
export type Styles = ChalkInstance;

export function styles(color: boolean): Styles {
  return new Chalk({ level: color ? 2 : 0 });
}
