import { Chalk, type ChalkInstance } from 'chalk';

/** The colour palette; every helper returns plain text when colour is off. */
export type Styles = ChalkInstance;

export function styles(color: boolean): Styles {
  return new Chalk({ level: color ? 2 : 0 });
}
