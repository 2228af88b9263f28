/** A cell's text: empty for null and undefined, else the value as a string. */
export const cellText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
