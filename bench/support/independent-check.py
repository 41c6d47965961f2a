#!/usr/bin/env python3
"""An exactness oracle for `linkladder check` on a folder: an independent link checker.

Written from the HTML Living Standard and RFC 3986 with Python's standard library
only (html.parser, urllib.parse), sharing no code and no parser with linkladder, so
that where the two agree neither is likely to be wrong in the same way.

    python3 bench/support/independent-check.py <dir> [--reachable-from index.html]

Prints one JSON object per line on stdout, sorted by file, line and href:
    {"file", "line", "column", "href", "target", "kind"}
with `kind` "missing-file" (the target names no file of the folder) or
"missing-fragment" (the file exists, but its `#fragment` names no element of it).
`file` is the page's path relative to <dir> with `/` separators, `line`/`column`
(1-based; the column in UTF-16 code units) where the attribute's value starts,
`href` the value as the parser gives it (character references decoded), `target`
its resolved URL under the fake origin. A summary goes to stderr.

What it checks, and how (docs/benchmarks-check.md has the reasons):
- every `.html`/`.htm` file under <dir> (symbolic links followed), read as UTF-8
  unless a BOM or a `<meta charset>` says otherwise; each file's URL is its path
  under a fake origin (http://oracle.invalid/ by default, `--origin` to change);
- the references a browser requests or navigates to: a/area href, iframe/frame src,
  meta refresh URL, link href (and imagesrcset; not rel preconnect, dns-prefetch,
  pingback or webmention, which name an origin or an endpoint), img/source src and
  srcset, script/embed/audio/track/input src, video src and poster, object data,
  SVG image/use href and xlink:href, the obsolete background of body and table
  parts, CSS url() and @import in <style> and style attributes, and in the .css
  files those reference. Not form actions nor cite (nothing is requested);
- the base URL is the first <base href> (resolved against the file's URL), else the
  file's URL; hrefs are cleaned as a browser does (leading/trailing C0 controls and
  spaces stripped, tab/CR/LF removed, `\\` read as `/` before the query);
- only http(s) targets on the fake origin are judged; other schemes and hosts are
  external and skipped;
- a target's path is percent-decoded (UTF-8) and read under <dir>: a path ending in
  `/` is its directory's index.html; a directory named without the slash is the
  same directory (a server answers with a redirect to the slash form); the query
  is ignored;
- a fragment is checked on a/area/iframe/frame/meta-refresh targets that are HTML
  files, as a browser scrolls to it (HTML "find a potential indicated element"):
  an element whose id is the fragment, or an <a> whose name is, first as written,
  then percent-decoded. Not checked: an empty fragment, `top` (any case, when no
  element has it: the top of the document), and a text directive (`:~:` onwards
  is dropped first).
"""

import argparse
import json
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, unquote_to_bytes, urljoin, urlsplit, urlunsplit

ORIGIN = 'http://oracle.invalid/'
HTML_EXTENSIONS = ('.html', '.htm')
INDEX = 'index.html'

# element -> attribute -> (kind, is_srcset). Kinds: "nav" (a link a reader follows or a
# frame: its fragment is checked) and "res" (requested, fragment not checked).
NAV = ('nav', False)
RES = ('res', False)
SRCSET = ('res', True)
CHECKED = {
    'a': {'href': NAV},
    'area': {'href': NAV},
    'iframe': {'src': NAV},
    'frame': {'src': NAV},
    'link': {'href': RES, 'imagesrcset': SRCSET},
    'img': {'src': RES, 'srcset': SRCSET},
    'source': {'src': RES, 'srcset': SRCSET},
    'script': {'src': RES},
    'embed': {'src': RES},
    'video': {'src': RES, 'poster': RES},
    'audio': {'src': RES},
    'track': {'src': RES},
    'input': {'src': RES},
    'object': {'data': RES},
    'image': {'href': RES, 'xlink:href': RES},
    'use': {'href': RES, 'xlink:href': RES},
}
for _element in ('body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th'):
    CHECKED[_element] = {'background': RES}
UNCHECKED_RELS = {'preconnect', 'dns-prefetch', 'pingback', 'webmention'}

# One attribute of a raw start tag (name, then an optional value), to find where a value starts.
ATTRIBUTE = re.compile(r'''([^\s/>"'=][^\s/>=]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]*))?''')
TAG_NAME = re.compile(r'<[^\s/>]+')
CSS_URL = re.compile(r'''url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')''', re.I)
CSS_COMMENT = re.compile(r'/\*.*?\*/', re.S)
SCHEME = re.compile(r'^([A-Za-z][A-Za-z0-9+.-]*):')
META_CHARSET = re.compile(rb'''<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)''', re.I)


def utf16_length(text):
    return len(text.encode('utf-16-le')) // 2


def decode_html(data):
    """The document's text: BOM, then <meta charset> in the first 1024 bytes, else UTF-8."""
    for bom, encoding in ((b'\xef\xbb\xbf', 'utf-8'), (b'\xff\xfe', 'utf-16-le'), (b'\xfe\xff', 'utf-16-be')):
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, 'replace')
    match = META_CHARSET.search(data[:1024])
    encoding = match.group(1).decode('ascii').lower() if match else 'utf-8'
    if encoding in ('iso-8859-1', 'latin1', 'us-ascii', 'ascii'):
        encoding = 'cp1252'  # HTML encoding labels: these all mean windows-1252
    try:
        return data.decode(encoding, 'replace')
    except LookupError:
        return data.decode('utf-8', 'replace')


def clean_href(value):
    """A URL attribute's value as a browser parses it (WHATWG URL: strip, drop tab/newline, `\\`)."""
    value = value.strip('\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13'
                        '\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ')
    value = value.replace('\t', '').replace('\n', '').replace('\r', '')
    scheme = SCHEME.match(value)
    if scheme is None or scheme.group(1).lower() in ('http', 'https'):
        cut = min((i for i in (value.find('?'), value.find('#')) if i >= 0), default=len(value))
        value = value[:cut].replace('\\', '/') + value[cut:]
    return value


def srcset_urls(value):
    """The URLs of a srcset (HTML "parse a srcset attribute", without the descriptors' checks)."""
    urls, position, n = [], 0, len(value)
    while position < n:
        while position < n and (value[position] in ' \t\n\f\r,'):
            position += 1
        start = position
        while position < n and value[position] not in ' \t\n\f\r':
            position += 1
        url = value[start:position]
        if url.endswith(','):
            url = url.rstrip(',')
        else:
            depth = 0  # descriptors run to a comma outside parentheses
            while position < n and (value[position] != ',' or depth > 0):
                depth += {'(': 1, ')': -1}.get(value[position], 0)
                position += 1
        if url:
            urls.append((url, start))
    return urls


def refresh_url(content):
    """The URL of a meta refresh's content (HTML "shared declarative refresh steps"), or None."""
    match = re.match(r'[ \t\n\f\r]*[0-9.]+[ \t\n\f\r]*[;,]?[ \t\n\f\r]*(.*)$', content, re.S)
    if match is None:
        return None
    rest = match.group(1)
    url_is = re.match(r'url[ \t\n\f\r]*=[ \t\n\f\r]*', rest, re.I)
    if url_is:
        rest = rest[url_is.end():]
    if rest[:1] in ('"', "'"):
        end = rest.find(rest[0], 1)
        rest = rest[1:] if end < 0 else rest[1:end]
    return rest or None


class Page(HTMLParser):
    """One HTML file: its references (with positions), its base and its anchors."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.references = []  # (line, column, href, kind, is_css)
        self.base = None
        self.anchors = set()
        self.in_style = None
        self.style_text = []

    def position_of(self, attribute, occurrence=0):
        """Line and column where the value of `attribute` starts in the current start tag."""
        line, column = self.getpos()
        raw = self.get_starttag_text() or ''
        name = TAG_NAME.match(raw)
        seen = 0
        for match in ATTRIBUTE.finditer(raw, name.end() if name else 0):
            if match.group(1).lower() == attribute:
                if seen == occurrence:
                    offset = match.start(2) if match.group(2) is not None else match.start(1)
                    if match.group(2) and match.group(2)[0] in '"\'':
                        offset += 1
                    before = raw[:offset]
                    newlines = before.count('\n')
                    if newlines:
                        return line + newlines, utf16_length(before[before.rfind('\n') + 1:]) + 1
                    return line, column + utf16_length(before) + 1
                seen += 1
        return line, column + 1

    def handle_starttag(self, tag, attrs):
        first = {}
        for name, value in attrs:  # HTML: a repeated attribute is ignored
            first.setdefault(name, value if value is not None else '')
        element_id = first.get('id')
        if element_id:
            self.anchors.add(element_id)
        if tag == 'a' and first.get('name'):
            self.anchors.add(first['name'])
        if tag == 'base' and 'href' in first and self.base is None:
            self.base = clean_href(first['href'])
        if tag == 'meta' and first.get('http-equiv', '').strip().lower() == 'refresh':
            url = refresh_url(first.get('content', ''))
            if url is not None:
                line, column = self.position_of('content')
                self.references.append((line, column, url, 'nav', False))
        if tag == 'link':
            rel = set(first.get('rel', '').lower().split())
            if rel & UNCHECKED_RELS:
                return self.handle_style_attribute(first)
        for attribute, (kind, is_srcset) in CHECKED.get(tag, {}).items():
            if attribute not in first:
                continue
            line, column = self.position_of(attribute)
            value = first[attribute]
            if is_srcset:
                for url, _ in srcset_urls(value):
                    self.references.append((line, column, url, kind, False))
            elif value.strip() != '' or kind == 'nav':
                self.references.append((line, column, value, kind, False))
        self.handle_style_attribute(first)
        if tag == 'style':  # its text starts where the start tag ends
            self.in_style = self.getpos()[0] + (self.get_starttag_text() or '').count('\n')
            self.style_text = []

    def handle_style_attribute(self, first):
        if 'style' in first:
            line, column = self.position_of('style')
            for url in css_urls(first['style']):
                self.references.append((line, column, url[0], 'res', True))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == 'style':
            self.in_style = None

    def handle_data(self, data):
        if self.in_style is not None:
            self.style_text.append(data)

    def handle_endtag(self, tag):
        if tag == 'style' and self.in_style is not None:
            line = self.in_style
            text = ''.join(self.style_text)
            for url, offset in css_urls(text):
                css_line, css_column = line_and_column(text, offset)
                self.references.append((line + css_line - 1, css_column, url, 'res', True))
            self.in_style = None


def line_and_column(text, offset):
    """1-based line and column (UTF-16 code units) of `offset` in `text`."""
    start = text.rfind('\n', 0, offset) + 1
    return text.count('\n', 0, offset) + 1, utf16_length(text[start:offset]) + 1


def css_urls(text):
    """(url, offset) of each url() and @import of a style sheet's text, comments skipped."""
    text = CSS_COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)
    found = []
    for match in CSS_URL.finditer(text):
        url = next((g for g in match.groups() if g is not None), '')
        if url.strip() and not url.strip().lower().startswith('data:'):
            found.append((url.strip(), match.start()))
    return found


class Oracle:
    def __init__(self, root, origin):
        self.root = os.path.realpath(root)
        self.origin = origin if origin.endswith('/') else origin + '/'
        parts = urlsplit(self.origin)
        self.scheme, self.host = parts.scheme.lower(), self.netloc_of(parts)
        self.prefix = parts.path  # the folder's root URL path, ending in /
        self.pages = {}  # relative path -> Page
        self.css = {}  # relative path -> [(line, url)]

    @staticmethod
    def netloc_of(parts):
        host = (parts.hostname or '').lower()
        try:
            port = parts.port
        except ValueError:  # not a port number: no host of ours
            return f'{host}:?'
        default = {'http': 80, 'https': 443}.get(parts.scheme.lower())
        return host if port in (None, default) else f'{host}:{port}'

    def url_of(self, relative):
        encoded = '/'.join(percent_encode_segment(s) for s in relative.split('/'))
        return self.origin + encoded

    def html_files(self):
        seen = set()
        for directory, subdirectories, files in os.walk(self.root, followlinks=True):
            real = os.path.realpath(directory)
            if real in seen:
                subdirectories[:] = []
                continue
            seen.add(real)
            subdirectories.sort()
            for name in sorted(files):
                if name.lower().endswith(HTML_EXTENSIONS):
                    full = os.path.join(directory, name)
                    yield os.path.relpath(full, self.root).replace(os.sep, '/')

    def page(self, relative):
        if relative not in self.pages:
            parser = Page()
            try:
                with open(os.path.join(self.root, relative), 'rb') as handle:
                    parser.feed(decode_html(handle.read()))
                parser.close()
            except (OSError, AssertionError) as error:  # html.parser raises AssertionError on some bad markup
                print(f'independent-check: {relative}: {error}', file=sys.stderr)
            self.pages[relative] = parser
        return self.pages[relative]

    def css_file(self, relative):
        if relative not in self.css:
            try:
                with open(os.path.join(self.root, relative), 'rb') as handle:
                    text = handle.read().decode('utf-8', 'replace')
                self.css[relative] = [(*line_and_column(text, offset), url) for url, offset in css_urls(text)]
            except OSError:
                self.css[relative] = []
        return self.css[relative]

    def file_of(self, target):
        """(relative file or None, is_local): the file a resolved URL names, by the rules above."""
        parts = urlsplit(target)
        if parts.scheme.lower() not in ('http', 'https'):
            return None, False
        if parts.scheme.lower() != self.scheme or self.netloc_of(parts) != self.host:
            return None, False
        path = parts.path or '/'
        if not path.startswith(self.prefix) and path + '/' != self.prefix:
            return None, False
        path = path[len(self.prefix):]
        decoded = unquote_to_bytes(path).decode('utf-8', 'surrogateescape')
        segments = []
        for segment in decoded.split('/'):
            if segment == '..':
                if segments:
                    segments.pop()
            elif segment not in ('.',):
                segments.append(segment)
        is_directory_form = decoded == '' or decoded.endswith('/')
        relative = '/'.join(s for s in segments if s != '')
        full = os.path.join(self.root, relative)
        if is_directory_form or os.path.isdir(full):
            relative = (relative + '/' if relative else '') + INDEX
            full = os.path.join(self.root, relative)
        return (relative if os.path.isfile(full) else ''), True

    def resolve(self, base, href):
        try:
            resolved = urljoin(base, href)
            parts = urlsplit(resolved)
            return resolved, parts
        except ValueError:  # e.g. a bad IPv6 literal
            return None, None

    def check_page(self, relative, findings, queue=None):
        page = self.page(relative)
        document = self.url_of(relative)
        base = document
        if page.base is not None:
            resolved, parts = self.resolve(document, page.base)
            if resolved is not None and parts.scheme:
                base = urlunsplit(parts._replace(fragment=''))
        for line, column, raw, kind, _ in page.references:
            self.check_reference(relative, line, column, raw, base, kind, findings, queue)

    def check_reference(self, relative, line, column, raw, base, kind, findings, queue):
        href = clean_href(raw)
        scheme = SCHEME.match(href)
        if scheme and scheme.group(1).lower() not in ('http', 'https'):
            return
        target, parts = self.resolve(base, href)
        if target is None:
            return
        file, is_local = self.file_of(target)
        if not is_local:
            return
        finding = {'file': relative, 'line': line, 'column': column, 'href': raw, 'target': target}
        if file == '':
            findings.append({**finding, 'kind': 'missing-file'})
            return
        is_html = file.lower().endswith(HTML_EXTENSIONS)
        if queue is not None and is_html and kind == 'nav':
            queue.append(file)
        if file.lower().endswith('.css'):
            for css_line, css_column, url in self.css_file(file):
                self.check_css(file, css_line, css_column, url, findings)
        if kind != 'nav' or not is_html:
            return
        fragment = parts.fragment
        directive = fragment.find(':~:')
        if directive >= 0:
            fragment = fragment[:directive]
        if fragment == '':
            return
        anchors = self.page(file).anchors
        decoded = unquote(fragment, 'utf-8', 'replace')
        if fragment in anchors or decoded in anchors or decoded.lower() == 'top':
            return
        findings.append({**finding, 'kind': 'missing-fragment'})

    def check_css(self, css, line, column, url, findings):
        key = (css, line, column, url)
        if key in self.css_checked:
            return
        self.css_checked.add(key)
        self.check_reference(css, line, column, url, self.url_of(css), 'res', findings, None)

    def run(self, reachable_from=None):
        findings = []
        self.css_checked = set()
        if reachable_from is None:
            files = list(self.html_files())
            for relative in files:
                self.check_page(relative, findings)
                self.pages[relative].references = []  # keep the anchors only
        else:
            queue, done = [reachable_from], set()
            while queue:
                relative = queue.pop()
                if relative in done or not os.path.isfile(os.path.join(self.root, relative)):
                    continue
                done.add(relative)
                self.check_page(relative, findings, queue)
            files = sorted(done)
        unique = {json.dumps(f, sort_keys=True): f for f in findings}  # a page's CSS file, checked once
        findings = sorted(unique.values(), key=lambda f: (f['file'], f['line'], f['column'], f['href'], f['kind']))
        return files, findings


def percent_encode_segment(segment):
    """A file name as a URL path segment: what a path may hold as is (RFC 3986 pchar) stays."""
    out = []
    for byte in segment.encode('utf-8', 'surrogateescape'):
        char = chr(byte)
        if char.isascii() and (char.isalnum() or char in "-._~!$&'()*+,;=:@"):
            out.append(char)
        else:
            out.append('%%%02X' % byte)
    return ''.join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('dir')
    parser.add_argument('--origin', default=ORIGIN, help='the URL the folder stands for (default %(default)s)')
    parser.add_argument('--reachable-from', metavar='FILE',
                        help='check only the pages reached from FILE (relative to dir) by a/area/frame/refresh links, as a crawl does')
    args = parser.parse_args()
    if not os.path.isdir(args.dir):
        parser.error(f'not a directory: {args.dir}')
    oracle = Oracle(args.dir, args.origin)
    files, findings = oracle.run(args.reachable_from)
    out = sys.stdout
    for finding in findings:
        out.write(json.dumps(finding, ensure_ascii=False) + '\n')
    missing_files = sum(1 for f in findings if f['kind'] == 'missing-file')
    references = sum(1 for _ in files)
    print(f'independent-check: {references} pages; {len(findings)} findings: '
          f'{missing_files} missing-file, {len(findings) - missing_files} missing-fragment; '
          f'{len({f["target"].split("#")[0] for f in findings if f["kind"] == "missing-file"})} distinct missing-file targets',
          file=sys.stderr)


if __name__ == '__main__':
    main()
