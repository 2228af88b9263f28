// jq-web ships no types: its CommonJS export is a promise of the compiled jq (jq 1.7).
declare module 'jq-web' {
  interface JqError extends Error {
    /** jq's own exit status: 2 usage, 3 compile error, 5 runtime error (halt_error: its code). */
    exitCode?: number;
    /** What jq wrote to standard error. */
    stderr?: string;
  }
  interface Jq {
    /** Runs `jq FLAGS FILTER` over the JSON text; returns standard output without its last newline, undefined when empty. */
    raw(json: string, filter: string, flags?: string[]): string | undefined;
  }
  const jq: Promise<Jq>;
  export default jq;
}
