import { Chalk, type ChalkInstance } from 'chalk';

/** The colour palette; every helper returns plain text when colour is off. */
export type Styles = ChalkInstance;

export function styles(color: boolean): Styles {
  return new Chalk({ level: color ? 2 : 0 });
}

/** A cell's text: empty for null and undefined, else the value as a string. */
export const cellText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
