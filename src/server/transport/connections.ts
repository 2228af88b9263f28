import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Socket } from 'node:net';
import { Roster } from './roster.js';

/**
 * The server's connections (docs/api-decisions.md §9): timeouts that always apply, a cap on open
 * connections, and a stop that drains for at most `drainMs`.
 */
export interface ConnectionLimits {
  /** Open connections at most; past it new ones are closed at once (default 1024). */
  maxConnections?: number;
  /** How long a stop waits for in-flight requests before closing what is left (default 10 s). */
  drainMs?: number;
}

export const DEFAULT_MAX_CONNECTIONS = 1024;
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Timeouts, given to createServer. Node enforces headers/request timeouts by a periodic check
 * (every 30 s by default, so a 20 s timeout could fire after 50 s): checked every second here.
 * The per-socket idle timeout ends a client that stops reading a response or sending a body.
 * None of them fires for a request that is merely slow to be answered: handlers are short.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 20_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;
export const SOCKET_IDLE_MS = 60_000;
/**
 * A connection with no request in progress when a stop begins (accepted just before, or
 * keep-alive between requests) may have one on its way: time given to it to arrive (it is
 * then answered, with `Connection: close`). One that sends nothing for this long is closed.
 */
export const FRESH_GRACE_MS = 500;

export interface Connections {
  /** Wraps the request listener: during a stop, every answer says `Connection: close`. */
  wrap(listener: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Stops accepting (the listening socket closes), lets the requests already taken in finish,
   * and destroys whatever is still open after `drainMs`: without a deadline a half-sent
   * request held the stop (and the store's lock) forever, Node's http.Server.close() having
   * stopped its headers/request timeout checks. Resolves once every connection is closed.
   */
  drain(): Promise<void>;
}

export function manageConnections(server: Server, limits: ConnectionLimits, log: (line: string) => void): Connections {
  const max = limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const drainMs = limits.drainMs ?? DEFAULT_DRAIN_MS;
  // Rosters, not Sets: a Set churned once a request or a connection is retained by the GC (roster.ts).
  const sockets = new Roster<Socket>();
  const answering = new Roster<ServerResponse>();

  let draining = false;

  server.timeout = SOCKET_IDLE_MS;
  // Node closes a connection past the cap as soon as it is accepted and emits 'drop' for it:
  // one log line when the cap is reached, one when it is left (not one per refused connection).
  server.maxConnections = max;
  let refused = 0;
  server.on('drop', () => {
    if (refused++ === 0) log(`cr serve: ${max} connections open (--max-connections): refusing new connections until some close`);
  });
  server.on('connection', (socket: Socket) => {
    const slot = sockets.add(socket);
    socket.once('close', () => {
      sockets.remove(slot, socket);
      if (refused > 0 && sockets.size < max) {
        log(`cr serve: accepting connections again (${refused} refused while at ${max})`);
        refused = 0;
      }
    });
  });

  const closeAfter = (res: ServerResponse) => {
    // A keep-alive client told "keep-alive" would send its next request on a socket the stop
    // is about to close, and get a reset; told "close", it opens a new connection (refused).
    if (!res.headersSent) res.shouldKeepAlive = false;
  };

  return {
    wrap: (listener) => (req, res) => {
      if (draining) closeAfter(res);
      const slot = answering.add(res);
      res.once('close', () => answering.remove(slot, res));
      void listener(req, res);
    },
    drain: () =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const res of answering) closeAfter(res);
        // A connection with no request begun (accepted a moment ago, or keep-alive between
        // requests) may have one on the wire: it gets a moment to arrive and is answered. Then
        // those still without one are closed: keep-alive ones as Node counts idle, new ones
        // by their byte count (Node does not count a connection that never sent a byte as idle).
        const grace = setTimeout(
          () => {
            server.closeIdleConnections();
            for (const s of sockets) if (s.bytesRead === 0) s.destroy();
          },
          Math.min(FRESH_GRACE_MS, drainMs),
        );
        const deadline = setTimeout(() => {
          if (sockets.size > 0) log(`cr serve: stopping: ${sockets.size} connection(s) still open after ${drainMs / 1000} s (--drain-timeout), closed`);
          for (const s of sockets) s.destroy();
        }, drainMs);
        // Stop accepting by closing the listening socket only. http.Server's close() would also
        // destroy at once every keep-alive connection between requests, even one whose next
        // request is on the wire (its client gets a reset), and stop enforcing the
        // headers/request timeouts; both stay with this module until the drain ends.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(grace);
          clearTimeout(deadline);
          server.close(); // now only ends Node's timeout checks (nothing left to close)
          resolve();
        });
      }),
  };
}
