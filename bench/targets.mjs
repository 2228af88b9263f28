/**
 * The speed targets of docs/benchmarks.md, each with the figure of this run that it is judged on,
 * and how to profile it when missed (the profiles are taken by bench/run.mjs).
 */
import { summarize, fmt, fx, pct, kfmt, div as x, keyFigures } from './stats.mjs';

const stat = (xs) => summarize(xs.filter(Number.isFinite));

/**
 * @param {object} o
 * @param {object} o.results  what bench/run.mjs measured
 * @param {number[]} o.SIZES  revenue-record counts of the scale tests (first = the small store)
 * @param {number} o.CONNS    connections (writers) of the load tests
 * @param {string} o.crBin    bin/cr.js
 * @param {Function} o.profileServer  (label, n, scenario) => profile of a server under load
 * @param {Function} o.profileCli     (label, args, env) => profile of one CLI run
 * @returns {{targets: object[], vsNodeHttp: {median:number,min:number,max:number,n:number}}}
 */
export function buildTargets({ results, SIZES, CONNS, crBin, profileServer, profileCli }) {
  const { c, small, big, w50, w1, ads } = keyFigures(results, SIZES, CONNS);
  /**
   * a/b req/s per repeat (the scenarios ran interleaved, so repeat r of each ran seconds apart):
   * median (min–max) of those paired ratios, steadier than a ratio of medians on a shared machine.
   */
  const paired = (a, b) => stat(a.rpsRuns.map((v, i) => x(v, b.rpsRuns[i])));
  const vsNodeHttp = paired(results.summary, results.nodeBody);
  const targets = [
    {
      id: 'version',
      what: '`cr --version` vs `node -e 0`',
      measured: x(c.version.median, c.floor.median),
      show: (v) => fx(v),
      target: '≤ 1.20×',
      met: (v) => v <= 1.2,
      profile: () => profileCli('cr --version', [crBin, '--version'], c.cliEnv),
    },
    {
      id: 'summary-cli',
      what: '`cr finance summary --json` vs `node -e 0`',
      measured: x(c.summary.median, c.floor.median),
      show: (v) => fx(v),
      target: '≤ 1.60×',
      met: (v) => v <= 1.6,
      profile: () => profileCli('cr finance summary --json', [crBin, 'finance', 'summary', '--json'], c.cliEnv),
      needsServer: true,
    },
    {
      id: 'local-cli',
      what: '`cr finance summary --local --json` vs `node -e 0`',
      measured: x(c.local.median, c.floor.median),
      show: (v) => fx(v),
      target: '≤ 2.20×',
      met: (v) => v <= 2.2,
      profile: () => profileCli('cr finance summary --local --json', [crBin, 'finance', 'summary', '--local', '--json'], c.localEnv),
    },
    {
      id: 'summary-vs-hono',
      what: `GET /finance/summary req/s at ${kfmt(small)} records vs bare Hono route`,
      measured: x(results.summary.rps.median, results.hono.rps.median),
      show: pct,
      target: '≥ 50 %',
      met: (v) => v >= 0.5,
      profile: () => profileServer('GET /finance/summary', small, 'summary'),
    },
    {
      id: 'summary-vs-nodehttp',
      what: `GET /finance/summary req/s at ${kfmt(small)} records vs a bare node:http route sending the same bytes (paired runs)`,
      measured: vsNodeHttp.median,
      show: fx,
      target: '≥ 0.60×',
      met: (v) => v >= 0.6,
      profile: () => profileServer('GET /finance/summary', small, 'summary'),
    },
    {
      id: 'ads-writes',
      what: `durable POST ads create, ${CONNS} writers, ${kfmt(small)} records`,
      measured: ads.rps.median,
      show: (v) => `${fmt(v, 0)}/s, lost ${ads.lost ?? 'n/a'}`,
      target: '≥ 8,000/s, none lost',
      met: (v) => v >= 8000 && ads.lost === 0,
      profile: () => profileServer('POST /content/ads/creatives/create 50 writers', small, { write: 'ads', writers: CONNS }),
    },
    {
      id: 'writes-abs',
      what: `durable POST /content/listeners req/s, 50 writers, ${kfmt(small)} records`,
      measured: w50.rps.median,
      show: (v) => fmt(v, 0),
      target: '≥ 5,000',
      met: (v) => v >= 5000,
      profile: () => profileServer('POST /content/listeners 50 writers', small, { write: 'listeners', writers: CONNS }),
    },
    {
      id: 'writes-scaling',
      what: `durable POST /content/listeners req/s, 50 writers vs 1 writer (${kfmt(small)})`,
      measured: x(w50.rps.median, w1.rps.median),
      show: fx,
      target: '≥ 10×',
      met: (v) => v >= 10,
      profile: () => profileServer('POST /content/listeners 50 writers', small, { write: 'listeners', writers: CONNS }),
    },
    {
      id: 'writes-big',
      what: `durable POST /content/listeners req/s, 50 writers, ${kfmt(big)} vs ${kfmt(small)} records`,
      measured: x(results.scale[big].writes50.rps.median, w50.rps.median),
      show: pct,
      target: '≥ 50 %',
      met: (v) => v >= 0.5,
      profile: () => profileServer(`POST /content/listeners 50 writers at ${kfmt(big)}`, big, { write: 'listeners', writers: CONNS }),
    },
    {
      id: 'load-big',
      what: `store load, ${kfmt(big)} revenue records`,
      measured: results.scale[big].loadMs.median,
      show: (v) => `${fmt(v, 0)} ms`,
      target: '< 2,000 ms',
      met: (v) => v < 2000,
      profile: () => profileServer(`store load at ${kfmt(big)}`, big, 'load'),
    },
    {
      id: 'summary-big',
      what: `GET /finance/summary p50, ${kfmt(big)} revenue records`,
      measured: results.scale[big].summaryP50.median,
      show: (v) => `${fmt(v, 1)} ms`,
      target: '< 50 ms',
      met: (v) => v < 50,
      profile: () => profileServer(`GET /finance/summary at ${kfmt(big)}`, big, 'summary'),
    },
    {
      id: 'rss-big',
      what: `RSS after load, ${kfmt(big)} revenue records`,
      measured: results.scale[big].rssMb.median,
      show: (v) => `${fmt(v, 0)} MB`,
      target: '< 300 MB',
      met: (v) => v < 300,
    },
  ];
  if (big !== 100_000) for (const t of targets) if (/big/.test(t.id)) t.note = `(run at ${kfmt(big)}, the target is for 100k)`;
  for (const t of targets) t.ok = t.met(t.measured);
  return { targets, vsNodeHttp };
}
