#!/usr/bin/env python3
"""Compare the broken links several checkers report, in one normalised form.

    python3 bench/support/compare-findings.py [--root DIR] [--cwd DIR] [--show N] NAME=FORMAT:FILE ...

Each input is one tool's output, read by FORMAT and normalised to records
(file, line, link, kind): `file` relative to --root with `/` separators, `line` 1-based
(0 when the tool gives none), `link` the href as written (character references
decoded, surrounding whitespace stripped), `kind` one of missing-file,
missing-fragment, broken-url (an http(s) link answered with an error), other.

FORMATs:
  oracle       JSON lines of bench/support/independent-check.py
  linkladder   JSON lines of `linkladder check --format json` (LINK_BROKEN, LINK_FRAGMENT_MISSING
               and LINK_UNVERIFIED are kept; other codes are counted, not compared)
  normalised   JSON lines {"file","line","link","kind"} (what the peers' adapters write)

Records are matched as multisets, first on (file, line, link, kind), then what is left
on (file, line, link) — "kind differs" — then on (file, link, kind) — "line differs".
With two inputs it prints both / only A / only B; with more, how many records each
combination of tools reported. Then the first --show differences of each group
(default 10), and the distinct targets that make them up. Exit 0 when every input
agrees, 1 when some record differs, 2 on bad usage.
"""

import argparse
import collections
import html
import json
import os
import sys
from urllib.parse import unquote, urlsplit


def normalise_file(value, root, cwd, page=None):
    if value:
        full = value if os.path.isabs(value) else os.path.join(cwd, value)
        relative = os.path.relpath(os.path.normpath(full), root)
        return relative.replace(os.sep, '/')
    if page:  # no file: the page URL's path under its origin
        return urlsplit(page).path.lstrip('/')
    return ''


def normalise_link(value):
    return html.unescape(value or '').strip(' \t\n\f\r')


def read_oracle(path, root, cwd, extra):
    for line in open(path, encoding='utf-8'):
        if line.strip():
            record = json.loads(line)
            yield {'file': record['file'], 'line': record.get('line') or 0, 'link': normalise_link(record['href']),
                   'kind': record['kind'], 'target': record.get('target', '')}


def read_linkladder(path, root, cwd, extra):
    for line in open(path, encoding='utf-8'):
        if not line.strip():
            continue
        record = json.loads(line)
        code = record.get('code')
        raw = record.get('rawHref') if record.get('rawHref') is not None else record.get('href')
        link = normalise_link(raw)
        if code == 'LINK_BROKEN':
            is_url = link.lower().startswith(('http://', 'https://', '//'))
            kind = 'broken-url' if is_url and extra.get('external-urls') else 'missing-file'
        elif code == 'LINK_FRAGMENT_MISSING':
            kind = 'missing-fragment'
        elif code == 'LINK_UNVERIFIED':
            kind = 'unverified'
        else:
            extra['other-codes'][code] += 1
            continue
        yield {'file': normalise_file(record.get('file'), root, cwd, record.get('page')), 'line': record.get('line') or 0,
               'link': link, 'kind': kind, 'target': record.get('target') or ''}


def read_normalised(path, root, cwd, extra):
    for line in open(path, encoding='utf-8'):
        if line.strip():
            record = json.loads(line)
            yield {'file': normalise_file(record['file'], root, cwd), 'line': record.get('line') or 0,
                   'link': normalise_link(record['link']), 'kind': record['kind'], 'target': record.get('target', '')}


READERS = {'oracle': read_oracle, 'linkladder': read_linkladder, 'normalised': read_normalised}


def match(tools, records):
    """Group records into (names-that-reported, stage, [record per tool]) by the three stages."""
    left = {name: list(records[name]) for name in tools}
    groups = []
    def link(r):  # `%20` and ` `, `<a b>` and `a b` are one link to match on (shown as written)
        written = r['link']
        return unquote(written[1:-1] if written.startswith('<') and written.endswith('>') else written)

    stages = (('same', lambda r: (r['file'], r['line'], link(r), r['kind'])),
              ('kind differs', lambda r: (r['file'], r['line'], link(r))),
              ('line differs', lambda r: (r['file'], link(r), r['kind'])))
    for stage, key in stages:
        buckets = collections.defaultdict(lambda: {name: [] for name in tools})
        for name in tools:
            for record in left[name]:
                buckets[key(record)][name].append(record)
        left = {name: [] for name in tools}
        for bucket in buckets.values():
            while any(bucket.values()):
                present = tuple(name for name in tools if bucket[name])
                if len(present) == 1 and stage != stages[-1][0]:
                    left[present[0]].extend(bucket[present[0]])  # try the next, looser key
                    bucket[present[0]] = []
                    break
                groups.append((present, stage if len(present) > 1 else 'alone', [bucket[n].pop(0) for n in present]))
    return groups


def describe(record):
    return f"{record['file']}:{record['line']}  {record['link']}  ({record['kind']})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('inputs', nargs='+', metavar='NAME=FORMAT:FILE')
    parser.add_argument('--root', default='.', help='the folder checked: files are shown relative to it')
    parser.add_argument('--cwd', default='.', help='the working directory the tools ran in (their relative file paths)')
    parser.add_argument('--show', type=int, default=10, help='differences shown per group (default %(default)s)')
    parser.add_argument('--external-urls', action='store_true', help='linkladder: a LINK_BROKEN on an http(s) href is broken-url')
    parser.add_argument('--cases', metavar='FILE', help='JSON lines {file, line, link, case} naming what each link of the folder tests (make-markdown-docs.py writes it): differences are counted by case')
    parser.add_argument('--truth', metavar='NAME', help='the input that is the truth: print each other tool\'s hits, misses and false reports')
    parser.add_argument('--ignore-lines', action='store_true', help='match on (file, link, kind) only (a tool without lines)')
    args = parser.parse_args()
    root, cwd = os.path.abspath(args.root), os.path.abspath(args.cwd)
    tools, records = [], {}
    for spec in args.inputs:
        name, _, rest = spec.partition('=')
        form, _, path = rest.partition(':')
        if not name or form not in READERS or not path:
            parser.error(f'expected NAME=FORMAT:FILE with FORMAT one of {", ".join(READERS)}, got `{spec}`')
        extra = {'other-codes': collections.Counter(), 'external-urls': args.external_urls}
        records[name] = list(READERS[form](path, root, cwd, extra))
        if args.ignore_lines:
            for record in records[name]:
                record['line'] = 0
        tools.append(name)
        other = ', '.join(f'{code} {n}' for code, n in extra['other-codes'].most_common())
        kinds = collections.Counter(r['kind'] for r in records[name])
        print(f"{name}: {len(records[name])} findings ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})"
              + (f'; not compared: {other}' if other else ''))
    groups = match(tools, records)
    tally = collections.Counter((present, stage) for present, stage, _ in groups)
    print()
    if len(tools) == 2:
        a, b = tools
        both = sum(n for (present, stage), n in tally.items() if len(present) == 2)
        print(f'both            {both}' + ''.join(f'\n  {stage:<13} {n}' for (present, stage), n in sorted(tally.items()) if len(present) == 2))
        print(f'only {a:<10} {tally[((a,), "alone")]}')
        print(f'only {b:<10} {tally[((b,), "alone")]}')
    elif not groups:
        print('no findings from any tool')
    else:
        for (present, stage), n in sorted(tally.items(), key=lambda item: (-len(item[0][0]), item[0])):
            print(f"{'+'.join(present):<40} {stage:<13} {n}")
    if args.truth in tools:
        print()
        for name in tools:
            if name == args.truth:
                continue
            hits = sum(1 for present, _, _ in groups if name in present and args.truth in present)
            false = sum(1 for present, _, _ in groups if name in present and args.truth not in present)
            missed = sum(1 for present, _, _ in groups if args.truth in present and name not in present)
            print(f'{name:<12} found {hits} of {len(records[args.truth])} true ({missed} missed), {false} false reports')
    differing = [(present, stage, found) for present, stage, found in groups if len(present) < len(tools) or stage != 'same']
    by_group = collections.defaultdict(list)
    for present, stage, found in differing:
        by_group[(present, stage)].append(found)
    cases = {}
    if args.cases:
        for line in open(args.cases, encoding='utf-8'):
            case = json.loads(line)
            written = case['link']
            cases.setdefault((case['file'], written), case['case'])
            cases.setdefault((case['file'], unquote(written.strip('<>'))), case['case'])
            cases.setdefault((case['file'], case['line']), case['case'])  # a reference's name, a bare URL's line

    def case_of(record):
        written = record['link']
        return (cases.get((record['file'], written)) or cases.get((record['file'], unquote(written.strip('<>'))))
                or cases.get((record['file'], record['line']), '?'))

    for (present, stage), items in sorted(by_group.items()):
        label = f"only {'+'.join(present)}" if stage == 'alone' else f"{'+'.join(present)}, {stage}"
        targets = collections.Counter((found[0]['target'] or found[0]['link']).split('#')[0] or found[0]['link'] for found in items)
        print(f'\n{label}: {len(items)} ({len(targets)} distinct targets; most: '
              + ', '.join(f'{t} ×{n}' for t, n in targets.most_common(3)) + ')')
        if cases:
            by_case = collections.Counter(case_of(found[0]) for found in items)
            print('  cases: ' + '; '.join(f'{case} ×{n}' for case, n in by_case.most_common()))
        for found in items[:args.show]:
            print('  ' + '  |  '.join(f'{name}: {describe(record)}' for name, record in zip(present, found)))
    return 1 if differing else 0


if __name__ == '__main__':
    sys.exit(main())
