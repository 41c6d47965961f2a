// The floor under any crawler on this stack, for bench/real-site.sh: Node and undici
// alone, requesting a list of URLs one at a time (as `wget -r -np` does) and reading
// each body as text; nothing parsed, resolved or stored. What the naive crawler costs
// over it is what htmlparser2 and WHATWG `URL` cost; what it costs over wget is what
// Node and undici cost.
//
//   node dist/bench/support/fetch-floor.js <file with one URL a line>

import { readFileSync } from 'node:fs';
import { request } from 'undici';

const list = process.argv[2];
if (list === undefined) {
  console.error('usage: fetch-floor <file with one URL a line>');
  process.exit(2);
}
const urls = readFileSync(list, 'utf8').split('\n').filter((line) => line !== '');
let bytes = 0;
for (const url of urls) {
  const response = await request(url);
  bytes += (await response.body.text()).length;
}
console.log(`${urls.length} requests, ${bytes} characters`);
