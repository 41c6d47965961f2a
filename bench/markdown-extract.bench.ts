// The Markdown extractor's speed: `extractMarkdownLinks` over a generated docs corpus
// (5 MB by default, files of about 24 KB: headings, paragraphs with inline, reference
// and autolinked links, images, lists, code blocks, tables, raw HTML). Peers, in the
// same run: the HTML extractor over the same documents rendered to HTML beforehand
// (what the crawl does with a page GitHub would serve), and markdown-link-check's
// extractor (`markdown-link-extractor`: marked, then an HTML link extractor) when it
// is installed under /tmp/peers/node_modules (MARKDOWN_PEERS to name another folder).
//
//   npm run bench -- markdown-extract         MARKDOWN_BENCH_MB=1 LINKLADDER_BENCH_ROUNDS=1
//   node --expose-gc dist/bench/markdown-extract.bench.js

import { createRequire } from 'node:module';
import path from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { extractLinks, extractMarkdownLinks, type LinkKind } from '../src/html/index.js';
import { measureThroughput, printEnvironment, printRatio } from './support/measure.js';

const FOLLOW: readonly LinkKind[] = ['navigation', 'frame', 'refresh'];
const MEGABYTES = Number(process.env['MARKDOWN_BENCH_MB'] ?? 5);
const PEERS = process.env['MARKDOWN_PEERS'] ?? '/tmp/peers/node_modules';

/** One document of about 24 KB, numbered so that no two are alike. */
function document(n: number): string {
  const parts: string[] = [`# Guide ${n}\n\nThis guide covers [installation](install.md#requirements) and [usage][usage].\n`];
  for (let s = 0; s < 24; s++) {
    parts.push(
      `## Section ${s}: the \`option${s}\` *setting*\n`,
      `Set [option ${s}](../reference/options.md#option-${s}) before you run ` +
        `\`tool --flag${s}\`. See <https://example.com/docs/${n}/${s}> or www.example.org/${s}, ` +
        `and ![diagram ${s}](images/diagram-${s}.png "Diagram"). Mail ops${s}@example.com.\n`,
      `- [First](first-${s}.md) item with **bold** text\n- Second item, see [the FAQ][faq]\n  - nested [link](nested/${s}.md)\n`,
      '```sh\n$ tool run [not](a-link.md) --verbose\n$ echo done\n```\n',
      `| Name | Link |\n|------|------|\n| a${s} | [a](a/${s}.md) |\n| b${s} | <https://b.example/${s}> |\n`,
      `<a href="raw-${s}.html" id="raw-${s}">raw HTML</a> and &amp; entities \\[escaped\\]\n`,
    );
  }
  parts.push('[usage]: usage.md\n[faq]: https://example.com/faq "FAQ"\n');
  return parts.join('\n');
}

function corpus(megabytes: number): string[] {
  const documents: string[] = [];
  let size = 0;
  for (let n = 0; size < megabytes * 1e6; n++) {
    const text = document(n);
    documents.push(text);
    size += Buffer.byteLength(text, 'utf8');
  }
  return documents;
}

type PeerExtractor = (markdown: string) => readonly unknown[] | { links: readonly unknown[] };

function loadPeer(): PeerExtractor | undefined {
  try {
    return createRequire(path.join(PEERS, 'noop.js'))('markdown-link-extractor') as PeerExtractor;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const documents = corpus(MEGABYTES);
  const megabytes = documents.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0) / 1e6;
  const pages = documents.map((text) => micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true }));
  printEnvironment();
  const links = documents.reduce((sum, text) => sum + extractMarkdownLinks(text).references.length, 0);
  const htmlLinks = pages.reduce((sum, html) => sum + extractLinks(html).references.length, 0);
  console.log(`\ndocuments: ${documents.length}, ${megabytes.toFixed(2)} MB of Markdown, ${links} links (the HTML renderings: ${htmlLinks})`);
  const names = {
    ours: 'ours: extractMarkdownLinks(markdown)',
    html: 'extractLinks(the same, rendered to HTML)',
    peer: 'markdown-link-extractor (marked)',
  };
  const contenders = [
    { name: names.ours, pass: () => documents.reduce((sum, text) => sum + extractMarkdownLinks(text, { follow: FOLLOW }).references.length, 0) },
    { name: names.html, pass: () => pages.reduce((sum, html) => sum + extractLinks(html, { follow: FOLLOW }).references.length, 0) },
  ];
  const peer = loadPeer();
  if (peer === undefined) console.log(`(markdown-link-extractor not found under ${PEERS}: not measured)`);
  else {
    contenders.push({
      name: names.peer,
      pass: () =>
        documents.reduce((sum, text) => {
          const found = peer(text);
          return sum + (Array.isArray(found) ? found.length : (found as { links: readonly unknown[] }).links.length);
        }, 0),
    });
  }
  const rounds = await measureThroughput(`one pass = ${documents.length} documents`, documents.length, contenders);
  console.log('\nMB/s of Markdown (median over rounds):');
  for (const { name } of contenders) {
    const perSecond = [...rounds.get(name)!].sort((a, b) => a - b)[rounds.get(name)!.length >> 1]!;
    console.log(`  ${name.padEnd(46)} ${((perSecond / documents.length) * megabytes).toFixed(2).padStart(7)} MB/s`);
  }
  console.log('\nratios (throughput, > 1 is faster):');
  printRatio(rounds, names.ours, names.html);
  if (peer !== undefined) printRatio(rounds, names.ours, names.peer);
}

await main();
