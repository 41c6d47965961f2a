// A synthetic, deterministic link stream shaped like a crawl: pages of 100 links,
// most of them navigation links back to pages already known (a few hot ones and a
// long tail), the rest new pages; repeats are spelled as a site would spell them —
// exactly, with a fragment, or in a variant that only a rung of the ladder folds.
// Each link comes with its canonical key, which the SQL and Set peers get for free.

export interface StreamLink {
  readonly fromIndex: number;
  readonly target: string;
  readonly key: string;
}

export interface StreamShape {
  readonly links: number;
  readonly urls: number;
  /** Links per page. @default 100 */
  readonly linksPerPage?: number;
  /** Pages whose links go in one batch (one transaction). @default 1 */
  readonly pagesPerBatch?: number;
}

const HOSTS = 50;

function canonical(n: number): string {
  return `http://site${n % HOSTS}.example/section${(n >> 6) % 97}/page-${n}.html`;
}

// Spellings of one URL and the rung that folds each into its canonical form.
function spell(n: number, variant: number): string {
  const host = `site${n % HOSTS}.example`;
  const path = `/section${(n >> 6) % 97}/page-${n}.html`;
  switch (variant) {
    case 0:
      return `http://${host.toUpperCase()}${path}`; // syntax: case
    case 1:
      return `http://${host}${path.replace('page-', 'p%61ge-')}`; // syntax: %61 is "a"
    case 2:
      return `http://${host}/section${(n >> 6) % 97}/./page-${n}.html`; // syntax: dot segment
    case 3:
      return `http://${host}:80${path}`; // scheme: default port
    default:
      return `http://${host}:${path}`; // scheme: empty port
  }
}

/** A small, fast, seeded PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stream in batches of one page's links. New URLs are numbered 1, 2, 3, … in order. */
export function* linkBatches(shape: StreamShape, seed = 42): Generator<StreamLink[]> {
  const perPage = shape.linksPerPage ?? 100;
  const newShare = shape.urls / shape.links;
  const next = random(seed);
  let introduced = 1; // URL 0 is the seed
  let produced = 0;
  let page = 0;
  const batchSize = perPage * (shape.pagesPerBatch ?? 1);
  while (produced < shape.links) {
    const batch: StreamLink[] = [];
    for (let i = 0; i < batchSize && produced < shape.links; i++, produced++) {
      if (i > 0 && i % perPage === 0) page++;
      let n: number;
      const r = next();
      if (r < newShare && introduced < shape.urls) n = introduced++;
      else if (r < 0.8) n = Math.floor(next() * Math.min(introduced, 1000)); // navigation: hot pages
      else n = Math.floor(next() * introduced); // the long tail
      const key = canonical(n);
      const form = next();
      let target = key;
      if (form < 0.1) target = `${key}#s${i % perPage}`;
      else if (form < 0.2) target = spell(n, Math.floor(next() * 5));
      batch.push({ fromIndex: Math.min(page, introduced - 1), target, key });
    }
    page++;
    yield batch;
  }
}

export function seedUrl(): string {
  return canonical(0);
}
