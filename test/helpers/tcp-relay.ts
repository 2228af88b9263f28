import { connect, createServer, type Socket } from 'node:net';

export interface TcpRelay {
  /** The relay's port on 127.0.0.1. */
  port: number;
  /**
   * The network path to the target goes silent for the connections open now, as when the
   * target's host drops off the network: nothing more is carried either way, not even a close.
   * Connections made afterwards are carried as usual (or reset, when the target refuses them).
   */
  silence: () => void;
  /** The silenced connections are gone (reset), as a client finds them once its keepalive gives up. */
  dropSilenced: () => void;
  close: () => Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 to `127.0.0.1:targetPort`, for what a real server and a real
 * database cannot do on demand: a database host that stops answering on connections already
 * open. A connection the target refuses is reset, as a client finds a host whose port closed.
 */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const pairs = new Set<{ client: Socket; upstream: Socket; silent: boolean }>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, silent: false };
    pairs.add(pair);
    client.on('data', (d) => void (pair.silent || upstream.write(d)));
    upstream.on('data', (d) => void (pair.silent || client.write(d)));
    client.on('error', () => undefined);
    // Refused, or reset by the target: the client's connection is reset; a close is passed on.
    upstream.on('error', () => void (pair.silent || client.resetAndDestroy()));
    upstream.on('end', () => void (pair.silent || client.end()));
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    silence: () => {
      for (const p of pairs) p.silent = true;
    },
    dropSilenced: () => {
      for (const p of pairs) if (p.silent) p.client.resetAndDestroy();
    },
    close: async () => {
      for (const p of pairs) p.client.resetAndDestroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
