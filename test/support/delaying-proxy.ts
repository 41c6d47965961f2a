// A TCP proxy on 127.0.0.1 that plays a network between a client and a server: each
// chunk is delivered `oneWayMs` after it arrived, in each direction, in order (a round
// trip then costs 2 × oneWayMs more than over loopback). It also counts the client's
// turns: a chunk from the client after an answer of the server was handed to it since
// its last chunk (or the first of a connection) is one round trip the client began.
// Chunks a client writes before any answer reaches it count once, as a pipeline does
// (with a delay of a millisecond or more: at 0, an answer may be handed over between
// two writes of one pipeline).
// A side that closes (end or error) closes the other once what was in transit is delivered.

import { createServer, connect, type Server, type Socket } from 'node:net';

export interface DelayingProxyOptions {
  /** Where the proxy forwards to (on 127.0.0.1). */
  readonly targetPort: number;
  /** Delay of each chunk, each way (half the round-trip time it adds). @default 0 */
  readonly oneWayMs?: number;
}

export interface DelayingProxy {
  readonly port: number;
  /** The one-way delay; may be changed while the proxy runs (chunks already in transit keep theirs). */
  oneWayMs: number;
  /** Round trips the clients began (see the file's comment), all connections together. */
  readonly turns: number;
  /** Connections accepted. */
  readonly connections: number;
  /** Set the counters to 0. */
  resetCounts(): void;
  close(): Promise<void>;
}

/** One direction of a connection: chunks due at a time, delivered in order by one timer. */
class DelayedPipe {
  readonly #queue: { at: number; chunk: Buffer | null; delivered: (() => void) | undefined }[] = [];
  readonly #to: Socket;
  #timer: NodeJS.Timeout | undefined;

  constructor(to: Socket) {
    this.#to = to;
  }

  /** `chunk` (null: the end) delivered `delayMs` from now, after every chunk before it. */
  push(chunk: Buffer | null, delayMs: number, delivered?: () => void): void {
    const last = this.#queue.at(-1)?.at ?? 0;
    this.#queue.push({ at: Math.max(performance.now() + delayMs, last), chunk, delivered });
    this.#drain();
  }

  #drain(): void {
    if (this.#timer !== undefined) return;
    const now = performance.now();
    while (this.#queue.length > 0 && this.#queue[0]!.at <= now) {
      const { chunk, delivered } = this.#queue.shift()!;
      if (this.#to.destroyed) continue;
      if (chunk === null) this.#to.end();
      else this.#to.write(chunk);
      delivered?.();
    }
    const next = this.#queue[0];
    if (next === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, Math.max(0, next.at - now));
  }

  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }
}

export async function startDelayingProxy(options: DelayingProxyOptions): Promise<DelayingProxy> {
  const sockets = new Set<Socket>();
  let turns = 0;
  let connections = 0;
  const proxy = {
    port: 0,
    oneWayMs: options.oneWayMs ?? 0,
    get turns() {
      return turns;
    },
    get connections() {
      return connections;
    },
    resetCounts() {
      turns = 0;
      connections = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  // Half-open: a side that ended still receives what was in transit to it.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    connections++;
    client.setNoDelay(true);
    const upstream = connect({ host: '127.0.0.1', port: options.targetPort, allowHalfOpen: true });
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    const toServer = new DelayedPipe(upstream);
    const toClient = new DelayedPipe(client);
    // Whether the client has been handed an answer since its last chunk: what it sends then began a round trip.
    let hasServerSpoken = true;
    client.on('data', (chunk) => {
      if (hasServerSpoken) turns++;
      hasServerSpoken = false;
      toServer.push(chunk, proxy.oneWayMs);
    });
    upstream.on('data', (chunk) => {
      toClient.push(chunk, proxy.oneWayMs, () => (hasServerSpoken = true));
    });
    client.on('end', () => toServer.push(null, proxy.oneWayMs));
    upstream.on('end', () => toClient.push(null, proxy.oneWayMs));
    const closeBoth = (): void => {
      toServer.clear();
      toClient.clear();
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    client.on('close', () => {
      sockets.delete(client);
      if (!upstream.destroyed) setTimeout(() => upstream.destroy(), proxy.oneWayMs + 50).unref();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (!client.destroyed) setTimeout(() => client.destroy(), proxy.oneWayMs + 50).unref();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  proxy.port = typeof address === 'object' && address !== null ? address.port : 0;
  return proxy;
}
