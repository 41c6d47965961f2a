#!/usr/bin/env python3
"""Read a Markdown link checker's report into JSON lines {"file","line","link","kind"}.

    python3 bench/support/peer-findings.py mlc|remark <report> --root <dir the tool ran in>

- mlc: the default (text) report of markdown-link-check, run on a folder or on files:
  a `FILE: path` header per file, then the dead links as `[✖] link → Status: code`.
  It gives no line: the line is the first of the file holding the link as written
  (or percent-decoded), 0 when none does. Kind: an http(s) link is broken-url, a
  `#fragment` missing-fragment (only same-file fragments are checked), anything else
  missing-file (it reports a missing file as status 400); another scheme (mailto:) other.
- remark: vfile-reporter's text report of `remark --use remark-validate-links`: a file
  name line, then `line:col-line:col  warning  message  rule  source`. The link is read
  from the file at that position (the message names a path, not the link as written).
  missing-file → missing-file; missing-heading and missing-heading-in-file →
  missing-fragment. A message whose file does not hold the path it names (the plugin
  sometimes files a message under another file) is kept, marked "misfiled": true.
"""

import argparse
import json
import os
import re
import sys
from urllib.parse import unquote

MLC_FILE = re.compile(r'^FILE: (.*)$')
MLC_DEAD = re.compile(r'^\s*\[✖\] (.*) → Status: (\S*)')
# A long message leaves one space before the rule: anchor on the plugin's own `source:rule`.
REMARK_MESSAGE = re.compile(r'^\s*(\d+):(\d+)(?:-(\d+):(\d+))?\s+(warning|error)\s+(.*)\s+(\S+)\s+remark-validate-links:(\S+)\s*$')
INLINE_URL = re.compile(r'\]\(\s*(<[^>\n]*>|[^)\s]+)')
DEFINITION_URL = re.compile(r'^\s*\[[^\]]*\]:\s*(<[^>\n]*>|\S+)')
AUTOLINK = re.compile(r'^<([^>\s]+)>$')


def read_lines(path, cache={}):
    if path not in cache:
        try:
            with open(path, encoding='utf-8') as handle:
                cache[path] = handle.read().split('\n')
        except OSError:
            cache[path] = []
    return cache[path]


def mlc(report, root):
    current = None
    for raw in open(report, encoding='utf-8', errors='replace'):
        line = re.sub(r'\x1b\[[0-9;]*m', '', raw.rstrip('\n'))
        header = MLC_FILE.match(line.strip())
        if header:
            current = os.path.relpath(os.path.join(root, header.group(1)), root).replace(os.sep, '/')
            continue
        dead = MLC_DEAD.match(line)
        if not dead or current is None:
            continue
        link, status = dead.group(1), dead.group(2)
        kind = ('broken-url' if re.match(r'(?i)https?://', link)
                else 'other' if re.match(r'[A-Za-z][A-Za-z0-9+.-]*:', link)
                else 'missing-fragment' if link.startswith('#') else 'missing-file')
        number = 0
        for index, text in enumerate(read_lines(os.path.join(root, current)), start=1):
            if link in text or unquote(link) in text:
                number = index
                break
        yield {'file': current, 'line': number, 'link': link, 'kind': kind, 'status': status}


def remark(report, root):
    current = None
    for raw in open(report, encoding='utf-8', errors='replace'):
        line = re.sub(r'\x1b\[[0-9;]*m', '', raw.rstrip('\n'))
        message = REMARK_MESSAGE.match(line)
        if not message:
            if line and not line.startswith(' ') and not line.startswith(('⚠', '✖')):
                current = line.strip()
            continue
        if current is None:
            continue
        start_line, start_column = int(message.group(1)), int(message.group(2))
        end_line = int(message.group(3) or start_line)
        end_column = int(message.group(4) or start_column)
        text, rule = message.group(6).strip(), message.group(8)
        if rule not in ('missing-file', 'missing-heading', 'missing-heading-in-file'):
            continue
        lines = read_lines(os.path.join(root, current))
        source = '\n'.join(lines[start_line - 1:end_line])
        if end_line == start_line:
            source = source[start_column - 1:end_column - 1]
        else:
            source = source[start_column - 1:]
        found = INLINE_URL.search(source) or DEFINITION_URL.match(source) or AUTOLINK.match(source.strip())
        link = found.group(1) if found else source
        named = re.search(r'`([^`]*)`', text)
        record = {'file': current, 'line': start_line, 'link': link,
                  'kind': 'missing-file' if rule == 'missing-file' else 'missing-fragment', 'message': text}
        if named:
            name = unquote(named.group(1).lstrip('#')).lower()
            written = unquote(link).lower()
            if name and os.path.basename(name.rstrip('/')) not in written and name not in written:
                record['misfiled'] = True
                record['link'] = named.group(1)
        yield record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('tool', choices=('mlc', 'remark'))
    parser.add_argument('report')
    parser.add_argument('--root', default='.')
    args = parser.parse_args()
    reader = mlc if args.tool == 'mlc' else remark
    for record in reader(args.report, args.root):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
