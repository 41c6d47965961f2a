// A crawl's unit on PostgreSQL in as few round trips as its reads allow. Between a
// worker and a database on another machine, each round trip is a wait the page pays
// (each 1 ms of round-trip time cost a page 7.4 ms when every statement of the unit was
// awaited in turn, measured), so the unit sends what needs no answer along with what
// does, on one connection, in order (the server runs them in the order sent):
//   - BEGIN rides with the unit's first statement;
//   - a savepoint rides with the statement it guards (COMMIT releases it);
//   - writes whose answer the crawl does not read (the fetch row, the run's counts) are
//     sent and not awaited: they ride with the next read, or with COMMIT;
//   - a write may be kept back (`keep`) instead, so that the write after it takes it into
//     its own statement (the fetch row and the run's counts are one statement; the claim
//     held rides in the page's admission): each statement costs the server and the worker
//     a fixed share of CPU whatever it does. A write kept back is sent before any other
//     statement of the unit, COMMIT included, so the server still runs them in the order
//     the unit made them.
// A deferred write that fails aborts the transaction on the server: every statement
// after it fails, COMMIT then rolls back, and the unit fails with the deferred write's
// own error, as if it had been awaited. Nothing changes for what a unit records, or for
// a kill or a server restart: the unit is still one transaction, committed or not at all.
//
// Locks are held from the statement that takes them to COMMIT. Sent with COMMIT, the
// run's counts row is locked only while the server runs the last few statements, not
// across a round trip: units of one worker do not queue on it however far the server is.
//
// Like `transaction` (pg-database.ts), nothing is sent on a connection once it closed.

import { guardedConnection, isConnectionLost, reserveConnection, type Sql, type TransactionSql } from './pg-database.js';

/** The client's connection, as a query's `onexecute` hands it over. */
interface ClientConnection {
  onclose: ((error: unknown) => void) | null;
}

/** A query of the client, lazy until executed. */
interface LazyQuery<R> extends PromiseLike<R> {
  execute(): PromiseLike<R>;
}

/** Writes sent and not awaited: awaited together with COMMIT. */
export interface Deferred {
  /**
   * Send `query` now (in order with the unit's other statements); its answer is checked
   * at COMMIT by `check`, and its failure is the unit's error as `mapError` gives it.
   */
  send<R>(query: LazyQuery<R>, check?: (result: R) => void, mapError?: (error: unknown) => unknown): void;
  /**
   * Keep a write back: `flush` sends it (with `send`) before the unit's next statement
   * is made, or before COMMIT. The function returned takes it back unsent (true) so that
   * its caller sends it within a statement of its own; false once it was sent.
   */
  keep(flush: () => void): () => boolean;
  /**
   * The unit fails with `error` (the first one given) though the server's transaction
   * did not abort (a statement rolled back to its savepoint): it is rolled back, not committed.
   */
  fail(error: unknown): void;
}

/** `work` in one transaction on a connection of `sql`'s pool, pipelined as the file's comment says. */
export async function pipelinedTransaction<T>(
  sql: Sql,
  work: (tx: TransactionSql, deferred: Deferred) => Promise<T>,
  /** Statements sent right after COMMIT on the same connection (each its own transaction), riding with it. */
  after?: (tx: Sql) => Promise<void>,
): Promise<T> {
  const reserved = await reserveConnection(sql);
  let lost: unknown;
  // Every wait of the unit ends when its connection closes: a statement sent on a
  // connection that closed under it (a server restart) was seen never to settle, and its
  // unit then waited forever, its claim renewed, while every other worker waited on it.
  let onLost: (error: unknown) => void = () => {};
  const closed = new Promise<never>((_, reject) => (onLost = reject));
  closed.catch(() => {});
  const untilClosed = <R>(waited: PromiseLike<R>): Promise<R> => {
    const settled = Promise.resolve(waited);
    settled.catch(() => {});
    return Promise.race([settled, closed]);
  };
  /** The first deferred write that failed: the unit's error. */
  let failed: { error: unknown } | undefined;
  const pending: Promise<unknown>[] = [];
  /** The write kept back (`keep`), sent before any other statement is made on the unit's connection. */
  let kept: (() => void) | undefined;
  const flushKept = (): void => {
    const flush = kept;
    kept = undefined;
    flush?.();
  };
  const guard = (): void => {
    if (lost !== undefined) throw Object.assign(new Error('the connection to the server closed during the transaction'), { code: 'CONNECTION_CLOSED', cause: lost });
    flushKept();
  };
  const keep = (flush: () => void): (() => boolean) => {
    flushKept();
    kept = flush;
    return () => {
      if (kept !== flush) return false;
      kept = undefined;
      return true;
    };
  };
  const send = <R>(query: LazyQuery<R>, check?: (result: R) => void, mapError?: (error: unknown) => unknown): void => {
    guard();
    const sent = Promise.resolve(query.execute()).then(check === undefined ? undefined : (result) => check(result));
    // Seen here first: the unit throws it once the statements sent are answered.
    pending.push(sent.catch((error: unknown) => void (failed ??= { error: mapError === undefined ? error : mapError(error) })));
  };
  let savepoints = 0;
  // SAVEPOINT rides with the statements it guards. It is not released: COMMIT releases
  // every savepoint of the transaction, and a RELEASE would be one statement more a page
  // for the server (a unit takes a savepoint or two, well within what a transaction keeps cheaply).
  async function savepoint<R>(inner: (sp: TransactionSql) => Promise<R>): Promise<R> {
    const name = `s${savepoints++}`;
    const begun = Promise.resolve(tx.unsafe(`SAVEPOINT ${name}`).execute());
    begun.catch(() => {});
    try {
      const result = await inner(tx);
      await begun;
      return result;
    } catch (error) {
      if (lost === undefined && !isConnectionLost(error)) await tx.unsafe(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }
  const tx = guardedConnection(reserved, guard, savepoint);
  let connection: ClientConnection | undefined;
  const release = (error?: unknown): void => {
    if (lost !== undefined || (error !== undefined && isConnectionLost(error))) return;
    if (connection !== undefined) connection.onclose = null;
    reserved.release();
  };
  // Sent, not awaited: it goes with the unit's first statement.
  const begin = Promise.resolve(
    (
      reserved.unsafe('BEGIN', [], {
        onexecute: (c: ClientConnection) => {
          connection = c;
          c.onclose = (error) => {
            lost = error ?? new Error('closed');
            onLost(Object.assign(new Error('the connection to the server closed during the transaction'), { code: 'CONNECTION_CLOSED', cause: lost }));
          };
          return true;
        },
      } as never) as unknown as LazyQuery<unknown>
    ).execute(),
  );
  begin.catch(() => {});
  let result: T;
  try {
    const fail = (error: unknown): void => void (failed ??= { error });
    result = await untilClosed(work(tx, { send, keep, fail }));
    await untilClosed(begin);
    // Failed without the server's transaction aborted (`fail`): not committed.
    const failedEarly: { error: unknown } | undefined = failed;
    if (failedEarly !== undefined) throw failedEarly.error;
    flushKept();
    // COMMIT of a transaction a deferred write aborted answers ROLLBACK: the write's error is the unit's.
    const commit = Promise.resolve(tx.unsafe('COMMIT').execute());
    commit.catch(() => {});
    const afterwards = after?.(tx);
    await untilClosed(Promise.all(pending));
    await untilClosed(commit);
    // Committed: a connection lost now costs only the claim taken ahead (it lapses).
    await untilClosed(afterwards ?? Promise.resolve()).catch(() => {});
    if (failed !== undefined) throw failed.error;
  } catch (thrown) {
    // What the unit kept back is not sent: it rolls back.
    kept = undefined;
    // A statement after a deferred write that failed says only "transaction aborted": the write's own error is the unit's.
    await untilClosed(Promise.all(pending)).catch(() => {});
    const error = failed?.error ?? thrown;
    if (lost === undefined && !isConnectionLost(error)) {
      try {
        await untilClosed(tx.unsafe('ROLLBACK'));
      } catch {
        // Lost meanwhile: the server rolled it back.
      }
    }
    release(error);
    throw error;
  }
  release();
  return result;
}
