import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnProcess } from '../../helpers/process.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { startServer } from '../../../src/server/serve.js';
import { urlFileText } from '../../../src/local/serve-ad.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): cr local wait reads the URL file a server writes, whatever its store.

/** `cr local wait --url-file FILE`: returns once the URL in FILE answers; gives up clearly. */
afterAll(() => cleanupTempDirs());

describe('cr local wait', () => {
  it('prints the URL once the server in the file answers', async () => {
    const dir = tempDir();
    const server = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
    try {
      const file = join(dir, 'url.txt');
      writeFileSync(file, `${server.url}/api/v1\n`);
      const r = await runCli(['local', 'wait', '--url-file', file, '--timeout', '5']);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${server.url}/api/v1\n`);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['that anyone can write to', 0o666, undefined],
    ['that another user owns', 0o644, 65534],
  ])('does not trust a file %s, even naming the live server and its pid: exit 8, nothing printed', async (_what, mode, uid) => {
    if (uid !== undefined && process.getuid?.() !== 0) return; // only root can give a file to another user
    const dir = tempDir();
    const server = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
    try {
      const file = join(dir, 'url.txt');
      writeFileSync(file, urlFileText(`${server.url}/api/v1`, process.pid));
      chmodSync(file, mode);
      if (uid !== undefined) chownSync(file, uid, uid);
      const r = await runCli(['local', 'wait', '--url-file', file, '--pid', String(process.pid), '--timeout', '0.5']);
      expect(r.exitCode).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('belongs to another user or others can write to it');
    } finally {
      await server.close();
    }
  });

  it('gives up with exit 8 when no URL appears in time, naming the file', async () => {
    const file = join(tempDir(), 'url.txt');
    const r = await runCli(['local', 'wait', '--url-file', file, '--timeout', '0.5']);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`no URL appeared in ${file} within 1 s`);
  });

  it('keeps waiting past a URL nothing answers at, then gives up (a file left by an earlier run)', async () => {
    const dir = tempDir();
    const server = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
    const stale = `${server.url}/api/v1`;
    await server.close();
    const file = join(dir, 'url.txt');
    writeFileSync(file, `${stale}\n`);
    const r = await runCli(['local', 'wait', '--url-file', file, '--timeout', '0.5']);
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the server at ${stale} did not answer`);
  });

  it('stops at once with exit 1 when the --pid process has exited', async () => {
    const child = spawnProcess(process.execPath, ['-e', '0']);
    await child;
    const gone = child.pid!;
    const r = await runCli(['local', 'wait', '--url-file', join(tempDir(), 'url.txt'), '--pid', String(gone), '--timeout', '20']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`the server process (pid ${gone}) exited`);
  });

  describe('--pid: only the URL that process wrote', () => {
    const OTHER_PID = 4_194_305; // above the largest pid_max: no process of this machine
    /** A live process standing in for a `cr serve` that has not written its URL yet. */
    const starting = () => spawnProcess(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);

    it('a URL another (still answering) server left is not returned while the --pid process wrote none; exit 8 saying whose it is', async () => {
      const dir = tempDir();
      const earlier = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
      const child = starting();
      try {
        const file = join(dir, 'url.txt');
        writeFileSync(file, urlFileText(`${earlier.url}/api/v1`, OTHER_PID));
        const r = await runCli(['local', 'wait', '--url-file', file, '--pid', String(child.pid), '--timeout', '0.5']);
        expect(r.stdout).toBe('');
        expect(r.exitCode).toBe(8);
        expect(r.stderr).toContain(`was written by pid ${OTHER_PID}, not by pid ${child.pid}`);
        // An older file without a pid line is not trusted either.
        writeFileSync(file, `${earlier.url}/api/v1\n`);
        const old = await runCli(['local', 'wait', '--url-file', file, '--pid', String(child.pid), '--timeout', '0.5']);
        expect({ exit: old.exitCode, out: old.stdout }).toEqual({ exit: 8, out: '' });
        expect(old.stderr).toContain('was written by another process');
        // The same URL written by that process is its own.
        writeFileSync(file, urlFileText(`${earlier.url}/api/v1`, child.pid));
        const own = await runCli(['local', 'wait', '--url-file', file, '--pid', String(child.pid), '--timeout', '5']);
        expect({ exit: own.exitCode, out: own.stdout }).toEqual({ exit: 0, out: `${earlier.url}/api/v1\n` });
      } finally {
        child.kill('SIGKILL');
        await earlier.close();
      }
    });

    it('a --pid process that died before writing its URL: exit 1 at once, even though the URL in the file answers', async () => {
      const dir = tempDir();
      const earlier = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
      try {
        const file = join(dir, 'url.txt');
        writeFileSync(file, urlFileText(`${earlier.url}/api/v1`));
        const exited = spawnProcess(process.execPath, ['-e', '0']);
        await exited;
        const gone = exited.pid!;
        const r = await runCli(['local', 'wait', '--url-file', file, '--pid', String(gone), '--timeout', '20']);
        expect(r.stdout).toBe('');
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toContain(`the server process (pid ${gone}) exited`);
      } finally {
        await earlier.close();
      }
    });
  });
});
