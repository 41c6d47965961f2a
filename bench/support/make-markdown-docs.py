#!/usr/bin/env python3
"""Generate a folder of Markdown docs full of the cases link checkers disagree on, with its truth.

    python3 bench/support/make-markdown-docs.py <out> --external http://127.0.0.1:PORT/ [--sections 20 --pages 25]

Writes <out>/docs (about 500 .md files, images, folders with spaces and non-ASCII names)
and <out>/expected.jsonl: one line per link a reader on GitHub would find broken,
{"file","line","link","kind"} with kind missing-file, missing-fragment or broken-url
(the external server answers 404). Also <out>/external: the folder the loopback server
serves (bench/markdown-peers.sh starts it), and <out>/cases.jsonl: every link written,
with its case name and whether it is broken, to explain a difference.

What a page holds (seeded, so every run writes the same folder):
- headings: a title, duplicates (`Example` three times: example, example-1, example-2),
  punctuation and non-ASCII (`What's new?`, `Café & crème`), inline code, a link inside,
  a setext heading, closing `##`; raw HTML anchors (<a id>, <a name>);
- links: inline, with a title, reference-style (used and definitions), images, `../`,
  `%20` and a literal space in <…>, a UTF-8 file name percent-encoded, links to folders,
  raw HTML <a href>, autolinks and bare URLs to the loopback server (some 404), mailto;
- links that are not links: in fenced and indented code, inline code, HTML comments.
Broken on purpose: a missing file, a wrong case, a heading that is not there, a
duplicate-heading suffix beyond the last, a missing image, an external 404, a missing
folder. GitHub's rules are the truth: heading slugs as github-slugger makes them, a
folder link is fine (GitHub shows the folder), an unused reference definition is not
a link (it is not rendered).
"""

import argparse
import json
import os
import random
import re
import shutil

SLUG_DROP = re.compile(r'[^\w\- ]', re.UNICODE)


def slug(text):
    """GitHub's heading slug (github-slugger): lower case, punctuation dropped, spaces to '-'."""
    return SLUG_DROP.sub('', text.lower()).replace(' ', '-')


class Page:
    def __init__(self, path):
        self.path = path  # relative to docs/
        self.lines = []
        self.cases = []  # (line, link, case, kind or None)

    def add(self, text=''):
        self.lines.append(text)
        return len(self.lines)

    def link(self, line_text, link, case, kind=None):
        line = self.add(line_text)
        self.cases.append((line, link, case, kind))
        return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('out')
    parser.add_argument('--external', required=True, help='the loopback server\'s URL, ending in /')
    parser.add_argument('--sections', type=int, default=20)
    parser.add_argument('--pages', type=int, default=25)
    parser.add_argument('--seed', type=int, default=23)
    args = parser.parse_args()
    ext = args.external if args.external.endswith('/') else args.external + '/'
    rnd = random.Random(args.seed)
    docs = os.path.join(args.out, 'docs')
    external = os.path.join(args.out, 'external')
    for folder in (docs, external):
        if os.path.exists(folder):
            shutil.rmtree(folder)
    os.makedirs(os.path.join(docs, 'assets'))
    os.makedirs(os.path.join(docs, 'with space'))
    os.makedirs(os.path.join(external, 'folder'))
    for n in range(10):
        with open(os.path.join(docs, 'assets', f'pic-{n}.png'), 'wb') as handle:
            handle.write(b'\x89PNG\r\n\x1a\n')
        with open(os.path.join(external, f'ok-{n}.html'), 'w') as handle:
            handle.write('<!doctype html><title>ok</title><p id="here">ok</p>\n')
    with open(os.path.join(external, 'c#-test.html'), 'w') as handle:  # linked as c%23-test.html
        handle.write('<!doctype html><title>c sharp</title>\n')
    with open(os.path.join(external, 'folder', 'index.html'), 'w') as handle:
        handle.write('<!doctype html><title>folder</title>\n')

    sections = [f'section-{s:02d}' for s in range(args.sections)]
    names = [(s, f'page-{p:02d}.md') for s in sections for p in range(args.pages)]
    pages = {}

    # The pages every other one links to, with known headings.
    special = Page('with space/spaced page.md')
    special.add('# Spaced page')
    special.add()
    special.add('## Overview')
    special.add()
    special.add('Text.')
    pages[special.path] = special
    accent = Page('café.md')
    accent.add('# Café')
    accent.add()
    accent.add('## Menu')
    pages[accent.path] = accent
    sharp = Page('c#-notes.md')  # linked as c%23-notes.md
    sharp.add('# C# notes')
    pages[sharp.path] = sharp

    for index, (section, name) in enumerate(names):
        page = Page(f'{section}/{name}')
        pages[page.path] = page
        title = f'{section} {name[:-3]}'
        page.add(f'# {title}')
        page.add()
        page.add('## Overview')
        page.add()
        page.add('Some words about this page.')
        page.add()
        for _ in range(3):
            page.add('## Example')
            page.add()
            page.add('Text of an example.')
            page.add()
        page.add("## What's new?")
        page.add()
        page.add('## Café & crème')
        page.add()
        page.add('## The `config` file')
        page.add()
        page.add('## See [the overview](#overview)')
        page.add()
        page.add('Setext heading')
        page.add('--------------')
        page.add()
        page.add('## Closing hashes ##')
        page.add()
        page.add('<a id="custom-anchor"></a>')
        page.add('<a name="legacy-name"></a>')
        page.add()

        other_section, other_name = names[(index * 7 + 3) % len(names)]
        same_dir = other_name if other_section == section else name
        other = f'../{other_section}/{other_name}'
        n = index % 10
        ok = [
            (f'An [inline link]({other}).', other, 'relative ../'),
            (f'A [link with a title]({other} "Title").', other, 'title'),
            (f'A [heading link]({other}#overview).', f'{other}#overview', 'other file heading'),
            (f'The [second example]({other}#example-1).', f'{other}#example-1', 'duplicate heading suffix, other file'),
            ('The [third example](#example-2).', '#example-2', 'duplicate heading suffix'),
            ("[What's new](#whats-new).", '#whats-new', 'punctuation dropped from the slug'),
            ('[Accented](#café--crème).', '#café--crème', 'non-ASCII slug, & dropped'),
            ('[Accented, encoded](#caf%C3%A9--cr%C3%A8me).', '#caf%C3%A9--cr%C3%A8me', 'non-ASCII slug percent-encoded'),
            ('[Code](#the-config-file).', '#the-config-file', 'inline code in a heading'),
            ('[Heading with a link](#see-the-overview).', '#see-the-overview', 'a link in a heading'),
            ('[Setext](#setext-heading).', '#setext-heading', 'setext heading'),
            ('[Closing](#closing-hashes).', '#closing-hashes', 'closing hashes'),
            ('[Raw id](#custom-anchor).', '#custom-anchor', 'raw HTML <a id>'),
            ('[Raw name](#legacy-name).', '#legacy-name', 'raw HTML <a name>'),
            (f'[The title](#{slug(title)}).', f'#{slug(title)}', 'the title heading'),
            (f'A [sibling]({same_dir}) in the same folder.', same_dir, 'same folder'),
            ('An ![image](../assets/pic-%d.png).' % n, f'../assets/pic-{n}.png', 'image'),
            ('A [folder](../assets/) of images.', '../assets/', 'folder link'),
            ('A [section](../%s) without its slash.' % other_section, f'../{other_section}', 'folder link without a slash'),
            ('A [spaced page](../with%20space/spaced%20page.md#overview).', '../with%20space/spaced%20page.md#overview', '%20'),
            ('An [angle link](<../with space/spaced page.md>).', '<../with space/spaced page.md>', 'literal space in <>'),
            ('An [accented file](../caf%C3%A9.md#menu).', '../caf%C3%A9.md#menu', 'UTF-8 percent-encoded'),
            ('A [file with # in its name](../c%23-notes.md).', '../c%23-notes.md', '%23 in a file name'),
            (f'An external [page with # in its name]({ext}c%23-test.html).', f'{ext}c%23-test.html', '%23 in an external path'),
            (f'A [reference link][ref-{index}].', f'ref-{index}', 'reference (see its definition)'),
            (f'An external [page]({ext}ok-{n}.html).', f'{ext}ok-{n}.html', 'external ok'),
            (f'An external [page with a fragment]({ext}ok-{n}.html#here).', f'{ext}ok-{n}.html#here', 'external ok, fragment'),
            (f'An autolink <{ext}ok-{n}.html>.', f'{ext}ok-{n}.html', 'autolink ok'),
            (f'An external [folder]({ext}folder) without its slash.', f'{ext}folder', 'external redirect to folder/'),
            ('Write to [us](mailto:docs@example.invalid).', 'mailto:docs@example.invalid', 'mailto'),
        ]
        for text, link, case in ok:
            page.link(text, link, case)
        page.add()
        # Not links: code, comments.
        page.add('```markdown')
        page.link(f'[in a fence](missing-in-fence-{index}.md)', f'missing-in-fence-{index}.md', 'fenced code (not a link)')
        page.add('```')
        page.add()
        page.link(f'    [indented code](missing-indented-{index}.md)', f'missing-indented-{index}.md', 'indented code (not a link)')
        page.add()
        page.link(f'Inline code: `[x](missing-inline-{index}.md)`.', f'missing-inline-{index}.md', 'inline code (not a link)')
        page.link(f'<!-- [commented](missing-comment-{index}.md) -->', f'missing-comment-{index}.md', 'HTML comment (not a link)')
        page.add()

        # Broken on purpose, a few per page, chosen by the seed.
        broken = [
            (f'A [missing file](../{section}/nope-{index}.md).', f'../{section}/nope-{index}.md', 'missing file', 'missing-file'),
            (f'A [wrong case](../{other_section}/{other_name.capitalize()}).', f'../{other_section}/{other_name.capitalize()}', 'wrong case', 'missing-file'),
            (f'A [missing heading]({other}#no-such-heading).', f'{other}#no-such-heading', 'missing heading in another file', 'missing-fragment'),
            ('A [missing local heading](#absent-heading).', '#absent-heading', 'missing heading in the same file', 'missing-fragment'),
            ('A [fourth example](#example-3).', '#example-3', 'duplicate suffix beyond the last', 'missing-fragment'),
            ('A ![missing image](../assets/missing-%d.png).' % index, f'../assets/missing-{index}.png', 'missing image', 'missing-file'),
            (f'An external [404]({ext}missing-{index}.html).', f'{ext}missing-{index}.html', 'external 404', 'broken-url'),
            (f'An autolink 404 <{ext}gone-{index}.html>.', f'{ext}gone-{index}.html', 'autolink 404', 'broken-url'),
            (f'A [missing folder](../no-such-folder-{index}/).', f'../no-such-folder-{index}/', 'missing folder', 'missing-file'),
            (f'A raw <a href="../{section}/raw-missing-{index}.md">HTML link</a>.', f'../{section}/raw-missing-{index}.md', 'raw HTML href', 'missing-file'),
            (f'A [spaced miss](../with%20space/absent%20page.md).', '../with%20space/absent%20page.md', '%20 to a missing file', 'missing-file'),
            (f'A bare URL {ext}bare-{index}.html in the text.', f'{ext}bare-{index}.html', 'bare URL 404 (GFM autolink literal)', 'broken-url'),
        ]
        for text, link, case, kind in rnd.sample(broken, 3):
            page.link(text, link, case, kind)
        page.add()
        # Reference definitions: one used (fine or broken), one unused and broken.
        if rnd.random() < 0.2:
            page.link(f'[ref-{index}]: ../{other_section}/missing-ref-{index}.md', f'../{other_section}/missing-ref-{index}.md',
                      'reference definition, used, missing file', 'missing-file')
        else:
            page.link(f'[ref-{index}]: {other}#overview', f'{other}#overview', 'reference definition, used')
        page.link(f'[unused-{index}]: ../{section}/unused-missing-{index}.md', f'../{section}/unused-missing-{index}.md',
                  'unused definition to a missing file (not rendered)')

    for page in pages.values():
        full = os.path.join(docs, page.path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w', encoding='utf-8') as handle:
            handle.write('\n'.join(page.lines) + '\n')
    with open(os.path.join(docs, 'README.md'), 'w', encoding='utf-8') as handle:
        handle.write('# Generated docs\n\n' + '\n'.join(f'- [{s}]({s}/page-00.md)' for s in sections) + '\n')
    with open(os.path.join(args.out, 'expected.jsonl'), 'w', encoding='utf-8') as expected, \
            open(os.path.join(args.out, 'cases.jsonl'), 'w', encoding='utf-8') as cases:
        for page in pages.values():
            for line, link, case, kind in page.cases:
                cases.write(json.dumps({'file': page.path, 'line': line, 'link': link, 'case': case, 'kind': kind}, ensure_ascii=False) + '\n')
                if kind is not None:
                    expected.write(json.dumps({'file': page.path, 'line': line, 'link': link, 'kind': kind, 'case': case}, ensure_ascii=False) + '\n')
    files = sum(len(f) for _, _, f in os.walk(docs))
    print(f'make-markdown-docs: {len(pages) + 1} Markdown files, {files} files in all, under {docs}')


if __name__ == '__main__':
    main()
