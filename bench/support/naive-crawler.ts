// The floor of a crawler on this stack, for bench/real-site.sh: undici's request,
// htmlparser2 for every href/src, WHATWG `URL` to resolve, a Set to dedup, one
// request at a time (as `wget -r -np`), nothing stored. What linkladder costs over
// it is what its index, base chain, ladder and evidence cost; what it costs over
// wget is what Node and these libraries cost.
//
//   node dist/bench/support/naive-crawler.js http://127.0.0.1:PORT/site/index.html

import { Parser } from 'htmlparser2';
import { request } from 'undici';

async function crawlPrefix(seed: string): Promise<{ requests: number; urls: number }> {
  // As `wget -np`: only URLs under the seed's directory.
  const prefix = seed.slice(0, seed.lastIndexOf('/') + 1);
  const seen = new Set<string>([seed]);
  const queue = [seed];
  let requests = 0;
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    const base = url;
    const admit = (href: string | undefined): void => {
      if (href === undefined || !URL.canParse(href, base)) return;
      const target = new URL(href, base);
      target.hash = '';
      const key = target.href;
      if (key.startsWith(prefix) && !seen.has(key)) {
        seen.add(key);
        queue.push(key);
      }
    };
    const response = await request(url);
    requests++;
    const location = response.headers['location'];
    admit(typeof location === 'string' ? location : undefined);
    const type = response.headers['content-type'];
    if (response.statusCode !== 200 || typeof type !== 'string' || !type.includes('html')) {
      await response.body.dump();
      continue;
    }
    const parser = new Parser({
      onopentag: (_name, attributes) => {
        admit(attributes['href']);
        admit(attributes['src']);
      },
    });
    parser.end(await response.body.text());
  }
  return { requests, urls: seen.size };
}

const seed = process.argv[2];
if (seed === undefined) {
  console.error('usage: naive-crawler <seed URL>');
  process.exit(2);
}
const { requests, urls } = await crawlPrefix(seed);
console.log(`${requests} requests, ${urls} URLs`);
