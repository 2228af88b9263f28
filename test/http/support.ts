import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { createProxy } from 'proxy';
import selfsigned from 'selfsigned';
import { tempDir } from '../helpers/tmp.js';

/**
 * Real servers for the HTTP core's network tests, all on 127.0.0.1: a target answering the
 * API's envelope over http or https (a certificate from a CA the test makes), and a forward
 * proxy (the `proxy` package) that logs every CONNECT and forwarded request and resolves the
 * name TARGET_HOST to 127.0.0.1. That name resolves nowhere else, so an answer from it proves
 * the request went through the proxy.
 */
export const TARGET_HOST = 'cr-target.test';
/** An address of TEST-NET-1 (RFC 5737), never routed: the test proxies send it to 127.0.0.1 too. */
export const TARGET_IP = '192.0.2.10';

export interface Pki {
  /** A PEM file of the CA, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  key: string;
  cert: string;
}

/** A CA and a server certificate it signs, for TARGET_HOST and 127.0.0.1. */
/** A CA and a server certificate it signed, for `names` (DNS) and `ips` (by default the test host and 127.0.0.1). */
export async function makePki(names: { dns?: string[]; ips?: string[] } = {}): Promise<Pki> {
  const { dns = [TARGET_HOST], ips = ['127.0.0.1'] } = names;
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'cr test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await selfsigned.generate([{ name: 'commonName', value: TARGET_HOST }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...dns.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  const caFile = join(tempDir('cr-ca-'), 'ca.pem');
  writeFileSync(caFile, ca.cert);
  return { caFile, key: leaf.private, cert: leaf.cert };
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface Live {
  port: number;
  seen: Seen[];
  /** TCP connections accepted (a TLS handshake that failed counts too). */
  connections: () => number;
  close: () => Promise<void>;
}

const open: Live[] = [];

/** Closes every server the file started (afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => s.close()));
}

async function listen(server: Server, seen: Seen[]): Promise<Live> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const live: Live = {
    port: (server.address() as AddressInfo).port,
    seen,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
  open.push(live);
  return live;
}

export type Answer = (req: IncomingMessage, res: ServerResponse, live: { port: number }) => void;

/** The API's success envelope, as JSON. */
export const envelope: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ success: true, data: { answered: true } }));
};

/** A target over http, or https with `pki`'s certificate; it records what it was sent. */
export async function startTarget(answer: Answer = envelope, pki?: Pki): Promise<Live> {
  const seen: Seen[] = [];
  let port = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res, { port }));
  };
  const server = pki ? createTlsServer({ key: pki.key, cert: pki.cert }, handle) : createServer(handle);
  const live = await listen(server, seen);
  port = live.port;
  return live;
}

/**
 * A forward proxy: CONNECT tunnels and plain forwarding (the `proxy` package), TARGET_HOST
 * resolved to 127.0.0.1; with `credentials` ("user:password") it asks for them (407); with
 * `tls`, spoken to over TLS with that certificate (an https:// proxy).
 */
export async function startProxy(credentials?: string, tls?: Pki): Promise<Live> {
  const seen: Seen[] = [];
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }) : createServer();
  const toLoopback = (url: string) => url.replace(TARGET_HOST, '127.0.0.1').replace(TARGET_IP, '127.0.0.1');
  // Ahead of the proxy's own listeners: log, then point the name at this machine.
  server.prependListener('connect', (req: IncomingMessage) => {
    seen.push({ method: 'CONNECT', url: req.url!, headers: req.headers });
    req.url = toLoopback(req.url!);
  });
  server.prependListener('request', (req: IncomingMessage) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.url = toLoopback(req.url!);
  });
  const proxy = createProxy(server);
  if (credentials) proxy.authenticate = (req: IncomingMessage) => req.headers['proxy-authorization'] === `Basic ${Buffer.from(credentials).toString('base64')}`;
  return listen(server, seen);
}
