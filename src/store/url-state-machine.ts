// Where a URL is in its life, and every way it moves: the one table the three
// stores (SQLite, memory, PostgreSQL) implement. A state changes only through the
// writer operation a transition names; the SQL of the SQLite and PostgreSQL stores
// takes its `state IN (…)` conditions from here (`stateIn`), and the memory store
// asks `mayMove` before it changes a row. The contract suite walks the table on all
// three stores (test/store/url-state-machine.test.ts), and docs/store.md is checked
// against it.

/** Where a URL is in its life. */
export type UrlState = 'queued' | 'fetching' | 'done' | 'failed' | 'skipped' | 'alias';

export const URL_STATES: readonly UrlState[] = ['queued', 'fetching', 'done', 'failed', 'skipped', 'alias'];

/** The states of a URL left to fetch: while any URL is in one, the re-check begun last is in progress (`requeueFetched`). */
export const LEFT_TO_FETCH: readonly UrlState[] = ['queued', 'fetching'];

/** The SQL condition that holds while any URL is left to fetch (one EXISTS per state, so that a partial index on it serves). */
export const ANY_LEFT_TO_FETCH_SQL: string = LEFT_TO_FETCH.map((s) => `EXISTS (SELECT 1 FROM url WHERE state = '${s}')`).join(' OR ');

/**
 * The writer operations that move a URL: the IndexWriter methods of the same name,
 * and two that happen around them: `open` (a SQLite store opened for writing) and
 * `close` (a PostgreSQL worker closing its store).
 */
export type UrlOperation = 'admit' | 'claim' | 'recordFetch' | 'addAlias' | 'revokeAlias' | 'requeue' | 'requeueFetched' | 'open' | 'close';

export const URL_OPERATIONS: readonly UrlOperation[] = ['admit', 'claim', 'recordFetch', 'addAlias', 'revokeAlias', 'requeue', 'requeueFetched', 'open', 'close'];

/** The stores; a transition that names some happens only in those. */
export type StoreBackend = 'sqlite' | 'memory' | 'postgresql';

export const STORE_BACKENDS: readonly StoreBackend[] = ['sqlite', 'memory', 'postgresql'];

/** `none`: the URL is not in the index yet (admission inserts it). */
export type UrlOrigin = UrlState | 'none';

/** One move of a URL: from any of `from` to `to`, made only by `by`. */
export interface UrlTransition {
  readonly from: readonly UrlOrigin[];
  readonly to: UrlState;
  readonly by: UrlOperation;
  /** The condition beyond the state, in words; the move happens only when it holds. */
  readonly when?: string;
  /** The stores that make this move; every store when absent. */
  readonly only?: readonly StoreBackend[];
  /** Why the move exists. */
  readonly why: string;
}

const NOT_ALIAS: readonly UrlState[] = ['queued', 'fetching', 'done', 'failed', 'skipped'];

/** Every transition, by operation. A state not listed for an operation is one it leaves as it is. */
export const URL_TRANSITIONS: readonly UrlTransition[] = [
  {
    from: ['none'],
    to: 'queued',
    by: 'admit',
    when: 'the link is followed (or a seed)',
    why: 'A new URL that the crawl should fetch joins the frontier.',
  },
  {
    from: ['none'],
    to: 'skipped',
    by: 'admit',
    when: 'the link is not followed',
    why: 'A URL out of scope or not followed is still recorded, so that every link to it names one row and later spellings meet it.',
  },
  {
    from: ['skipped'],
    to: 'queued',
    by: 'admit',
    when: 'the link is followed',
    why: 'A skipped URL that a followed link names after all joins the frontier (at the shallower depth, with that link’s role).',
  },
  {
    from: ['queued'],
    to: 'fetching',
    by: 'claim',
    why: 'A claim hands the shallowest queued URLs to the fetcher; a URL in fetching is never handed out twice.',
  },
  {
    from: ['fetching'],
    to: 'fetching',
    by: 'claim',
    when: 'its lease lapsed',
    only: ['postgresql'],
    why: 'A worker that died (or stalled) holds its claims only for its lease: another worker then takes them over.',
  },
  {
    from: NOT_ALIAS,
    to: 'done',
    by: 'recordFetch',
    when: 'the outcome is done',
    why: 'The fetch answered: the URL leaves the frontier with its result recorded.',
  },
  {
    from: NOT_ALIAS,
    to: 'failed',
    by: 'recordFetch',
    when: 'the outcome is failed',
    why: 'The fetch gave no answer worth keeping (a network error, a timeout): the URL leaves the frontier with its error recorded.',
  },
  {
    from: URL_STATES,
    to: 'alias',
    by: 'addAlias',
    when: 'the evidence makes an alias (not canonical) and the URL is not its own target',
    why: 'Server evidence (a redirect, Content-Location, content evidence) proved that the URL is another: links to it now name its target (the protocol rung).',
  },
  {
    from: ['alias'],
    to: 'queued',
    by: 'revokeAlias',
    why: 'Contradicting evidence undid the alias: the URL is a resource of its own again and is asked again.',
  },
  {
    from: NOT_ALIAS,
    to: 'queued',
    by: 'requeue',
    why: 'The crawl puts a URL back on the frontier (a retry, a claim it gave back); an alias stays one, links to it name its target.',
  },
  {
    from: ['done', 'failed'],
    to: 'queued',
    by: 'requeueFetched',
    when: 'no re-check is in progress (one begins; a crawl that joins one in progress moves nothing)',
    why: 'A re-check asks every URL fetched again (its fetch rows kept: their validators make the requests conditional), once: workers that join it later queue nothing.',
  },
  {
    from: ['alias'],
    to: 'queued',
    by: 'requeueFetched',
    when: 'a redirect made it an alias, and no re-check is in progress',
    why: 'A re-check asks a URL that answered a redirect again: it may lead elsewhere now, or nowhere (its redirect evidence is dropped).',
  },
  {
    from: ['fetching'],
    to: 'queued',
    by: 'open',
    when: 'not opened read-only or to inspect (recoverClaims: false)',
    only: ['sqlite'],
    why: 'A crash leaves claimed URLs in fetching with their fetch never recorded: a store opened to write puts them back.',
  },
  {
    from: ['fetching'],
    to: 'queued',
    by: 'close',
    when: 'the claim is this worker’s',
    only: ['postgresql'],
    why: 'A worker that stops gives its unsettled claims back at once, rather than after its lease.',
  },
];

/** Each transition of the table with one from-state: the table as the contract suite walks it. */
export interface UrlMove {
  readonly from: UrlOrigin;
  readonly to: UrlState;
  readonly by: UrlOperation;
  readonly transition: UrlTransition;
}

export const URL_MOVES: readonly UrlMove[] = URL_TRANSITIONS.flatMap((transition) =>
  transition.from.map((from) => ({ from, to: transition.to, by: transition.by, transition })),
);

function movesOf(by: UrlOperation, to?: UrlState, backend?: StoreBackend): UrlMove[] {
  return URL_MOVES.filter(
    (m) => m.by === by && (to === undefined || m.to === to) && (backend === undefined || m.transition.only === undefined || m.transition.only.includes(backend)),
  );
}

/** The states `by` may move a URL out of (to `to`, when given). */
export function fromStates(by: UrlOperation, to?: UrlState, backend?: StoreBackend): UrlState[] {
  const states = new Set<UrlState>();
  for (const m of movesOf(by, to, backend)) if (m.from !== 'none') states.add(m.from);
  return URL_STATES.filter((s) => states.has(s));
}

const allowed = new Map<string, ReadonlySet<UrlOrigin>>();

/** Whether `by` may move a URL in state `from` to `to` (in `backend`, when given). */
export function mayMove(by: UrlOperation, from: UrlOrigin, to: UrlState, backend?: StoreBackend): boolean {
  const key = `${by} ${to} ${backend ?? ''}`;
  let froms = allowed.get(key);
  if (froms === undefined) allowed.set(key, (froms = new Set(movesOf(by, to, backend).map((m) => m.from))));
  return froms.has(from);
}

/**
 * The SQL condition on `column` that holds for the states `by` moves a URL out of (to
 * `to`): `state = 'queued'`, `state IN ('done', 'failed')`, or the complement when it
 * is shorter (`state <> 'alias'`). One state is written with `=`, so that a partial
 * index on it (`WHERE state = 'queued'`) still serves the query. `except` leaves out
 * states whose move another statement makes (a condition beyond the state).
 */
export function stateIn(
  by: UrlOperation,
  options: { readonly to?: UrlState; readonly column?: string; readonly except?: readonly UrlState[]; readonly backend?: StoreBackend } = {},
): string {
  const column = options.column ?? 'state';
  const states = fromStates(by, options.to, options.backend).filter((s) => !(options.except ?? []).includes(s));
  if (states.length === 0) throw new Error(`No transition by ${by} from any state`);
  const others = URL_STATES.filter((s) => !states.includes(s));
  const list = (values: readonly UrlState[]): string => values.map((s) => `'${s}'`).join(', ');
  if (states.length === 1) return `${column} = '${states[0]}'`;
  if (others.length === 1) return `${column} <> '${others[0]}'`;
  return others.length > 0 && others.length < states.length ? `${column} NOT IN (${list(others)})` : `${column} IN (${list(states)})`;
}
