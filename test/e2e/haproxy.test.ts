import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runBin } from '../helpers/cli.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { spawnProcess, runProcessSync } from '../helpers/process.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { deadPort } from '../helpers/http-server.js';

/**
 * The load balancer recipe of docs/shared-sandbox.md, run for real: the shipped
 * docs/haproxy.cfg (its ports changed for the ones this test gets) in front of three
 * `cr serve` on one PostgreSQL cluster of this test's own, which it stops and starts. HAProxy
 * asks each server GET /readyz: it must stop routing to a killed server, to every server while
 * the database is down, and route again once it is back.
 */
const CONFIG = join(ROOT, 'docs', 'haproxy.cfg');
const PG = join(ROOT, 'scripts', 'pg-cluster.sh');
const haproxy = runProcessSync('sh', ['-c', 'command -v haproxy']).stdout.trim();

async function pg(command: string, dir: string): Promise<string> {
  const r = await spawnProcess('bash', [PG, command, dir], { timeoutMs: 120_000 });
  if (r.exitCode !== 0) throw new Error(`pg-cluster.sh ${command}: ${String(r.stderr)}`);
  return String(r.stdout).trim();
}

/** Each server's state as HAProxy's runtime API tells it: `cr1 → UP`, … */
function serverStates(socket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const c = connect(socket, () => c.end('show stat\n'));
    c.on('data', (d) => (text += d.toString()));
    c.on('error', reject);
    c.on('close', () => {
      const states: Record<string, string> = {};
      for (const line of text.split('\n')) {
        const [px, sv, ...rest] = line.split(',');
        if (px === 'cr_servers' && sv && sv !== 'BACKEND') states[sv] = rest[15]!.split(' ')[0]!;
      }
      resolve(states);
    });
  });
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Outside CI a machine without HAProxy skips this file; `.ci/run` installs it, so there it must run.
describe.skipIf(!haproxy && !process.env.CI)('cr serve behind HAProxy (docs/haproxy.cfg)', () => {
  const cleanups = cleanupsAfterAll();

  it('the shipped config is valid', () => {
    const r = runProcessSync(haproxy, ['-c', '-f', CONFIG]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
  });

  it('routes around a killed server and around the database being down, and back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-haproxy-'));
    // The cluster runs as the postgres user (scripts/pg-cluster.sh), which must reach its folder.
    chmodSync(dir, 0o755);
    const cluster = join(dir, 'cluster');
    const url = await pg('start', cluster);
    cleanups.push(() => pg('stop', cluster));
    const init = await runBin(['local', 'init', '--store', url, '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    const { key } = JSON.parse(init.stdout) as { key: string };

    const servers: ServeProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await spawnServe(['--store', url], { dir: mkdtempSync(join(tmpdir(), 'cr-haproxy-serve-')) });
      cleanups.push(() => s.stop());
      servers.push(s);
    }
    const front = await deadPort();
    const socket = join(dir, 'haproxy.sock');
    let config = readFileSync(CONFIG, 'utf8').replace(/bind 127\.0\.0\.1:4010/, `bind 127.0.0.1:${front}`);
    for (const [i, s] of servers.entries()) config = config.replace(`127.0.0.1:${4011 + i} check`, `127.0.0.1:${s.port} check`);
    config = config.replace(/^global\n/m, `global\n    stats socket ${socket} level admin\n`);
    writeFileSync(join(dir, 'haproxy.cfg'), config);
    const lb = spawnProcess(haproxy, ['-db', '-f', join(dir, 'haproxy.cfg')], { buffer: false, timeoutMs: 120_000 });
    void lb.catch(() => undefined);
    cleanups.push(() => lb.kill('SIGTERM'));

    const get = () => fetch(`http://127.0.0.1:${front}/api/v1/finance/summary`, { headers: { authorization: `Bearer ${key}` } });
    const all = (state: string, names: string[]) => async () => {
      const states = await serverStates(socket);
      return names.every((n) => states[n] === state);
    };
    await until('every server UP', all('UP', ['cr1', 'cr2', 'cr3']));
    for (let i = 0; i < 6; i++) expect((await get()).status).toBe(200);
    // Round robin: every server answered some of them.
    for (const s of servers) expect(s.stderr()).toMatch(/GET \/api\/v1\/finance\/summary 200/);

    servers[1]!.kill('SIGKILL');
    await until('cr2 DOWN', all('DOWN', ['cr2']));
    expect((await serverStates(socket)).cr1).toBe('UP');
    for (let i = 0; i < 6; i++) expect((await get()).status).toBe(200);

    await pg('halt', cluster);
    await until('cr1 and cr3 DOWN with the database', all('DOWN', ['cr1', 'cr3']));
    const down = await get();
    expect(down.status).toBe(503);
    // HAProxy's own answer: no server was asked.
    expect(await down.text()).toMatch(/No server is available/i);

    await pg('resume', cluster);
    await until('cr1 and cr3 UP again', all('UP', ['cr1', 'cr3']));
    expect((await get()).status).toBe(200);
  }, 120_000);
});
