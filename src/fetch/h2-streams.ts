// Requests to one origin as streams of one HTTP/2 connection. undici's Client counts
// itself busy at `pipelining` requests in flight (1 unless set), h2 or not, so its Pool
// opens a connection for each request in flight even to a server that chose h2. Here
// each Client learns, when its connection is made, what ALPN chose: on h2 it takes many
// streams at once (RFC 9113 §5.1.2: the server's SETTINGS_MAX_CONCURRENT_STREAMS still
// bounds them, nghttp2 holds the rest back), on HTTP/1.1 one request at a time, as
// before (no HTTP/1.1 pipelining). The crawl's per-host limit caps what is in flight.

import type { Dispatcher, Pool, buildConnector as BuildConnector } from 'undici';
import { UndiciClient, UndiciPool } from './undici-parts.js';

/** Streams in flight on one h2 connection at most (undici's own `maxConcurrentStreams`, RFC 9113 §6.5.2's advice). */
const H2_STREAMS = 100;

type ConnectorOptions = BuildConnector.Options & { readonly connect: BuildConnector.connector };

/** An Agent `factory`: a Pool per origin whose connections carry many streams once they are h2. */
export function streamingPool(origin: string | URL, options: Dispatcher.ComposedDispatcher | Pool.Options | object): Dispatcher {
  return new UndiciPool(origin, { ...(options as Pool.Options), factory: streamingClient });
}

function streamingClient(origin: string | URL, options: object): Dispatcher {
  const { connect } = options as ConnectorOptions;
  const client = new UndiciClient(origin, {
    ...(options as Pool.Options),
    connect: (connectOptions, callback) =>
      connect(connectOptions, (...args) => {
        callback(...args);
        const [error, socket] = args;
        // After the Client took the socket: setting it resumes the queue at the new width.
        if (error === null && !client.destroyed) client.pipelining = (socket as { alpnProtocol?: unknown }).alpnProtocol === 'h2' ? H2_STREAMS : 1;
      }),
  });
  return client;
}
