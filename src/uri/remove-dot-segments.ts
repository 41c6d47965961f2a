// RFC 3986 §5.2.4 Remove Dot Segments.
//
// The RFC states the algorithm as rules A–E that rewrite an input buffer. This is
// the same algorithm over indices: rules A and D can only fire while the input does
// not yet start with "/", and after any rule but A the input starts with "/" (or is
// empty), so the loop runs A/D once, then B, C and E over "/"-led segments. Output
// pieces are "/segment" (or one leading "segment"), so rule C's "remove the last
// segment and its preceding '/'" is popping the last piece. A test checks this
// against a literal transcription of rules A–E.
//
// DEVIATION(§5.2.4): a segment spelled with percent-encoded dots ("%2E", "%2e",
// ".%2E", "%2E%2E", …) is a dot segment too, as in the WHATWG URL Standard.
// "%2E" and "." are equivalent (§2.3, §6.2.2.2: "." is unreserved), so
// `/x/%2E/..` and `/x/./..` name one resource; with §5.2.4's letter, resolving
// the first gives `/x/` and normalizing it gives `/`. Reading them as dots makes
// resolution agree with normalization: key(u) = key(resolve(u, b)) for every
// absolute URI u (docs/deviations.md).

const SLASH = 0x2f;
const DOT = 0x2e;
const PERCENT = 0x25;

/** 1 when path[i, i + 3) is "%2E" or "%2e" (a dot, percent-encoded), else 0. */
function isEncodedDot(path: string, i: number): boolean {
  return (
    path.charCodeAt(i) === PERCENT &&
    path.charCodeAt(i + 1) === 0x32 &&
    (path.charCodeAt(i + 2) | 0x20) === 0x65
  );
}

/**
 * What the segment path[start, end) is: 1 for ".", 2 for "..", 0 for any other;
 * a dot may be written "%2E" or "%2e" (see the DEVIATION above).
 */
export function dotSegmentKind(path: string, start: number, end: number): 0 | 1 | 2 {
  const length = end - start;
  if (length === 0 || length > 6) return 0;
  let dots = 0;
  let i = start;
  while (i < end) {
    if (path.charCodeAt(i) === DOT) i++;
    else if (i + 3 <= end && isEncodedDot(path, i)) i += 3;
    else return 0;
    if (++dots > 2) return 0;
  }
  return dots as 1 | 2;
}

/** Whether `path` has a "." or ".." segment (literal or percent-encoded), i.e. whether removeDotSegments can change it. */
export function hasDotSegments(path: string): boolean {
  let i = path.indexOf('.');
  while (i !== -1) {
    if (i === 0 || path.charCodeAt(i - 1) === SLASH) {
      let j = i + 1;
      if (j < path.length && path.charCodeAt(j) === DOT) j++;
      if (j === path.length || path.charCodeAt(j) === SLASH) return true;
    }
    i = path.indexOf('.', i + 1);
  }
  return path.indexOf('%') !== -1 && hasEncodedDotSegment(path);
}

function hasEncodedDotSegment(path: string): boolean {
  let start = 0;
  const n = path.length;
  while (start <= n) {
    let end = path.indexOf('/', start);
    if (end === -1) end = n;
    if (dotSegmentKind(path, start, end) !== 0) return true;
    start = end + 1;
  }
  return false;
}

/** RFC 3986 §5.2.4 remove_dot_segments */
export function removeDotSegments(path: string): string {
  if (!hasDotSegments(path)) return path;
  const n = path.length;
  const output: string[] = [];
  let i = 0;
  // A. remove each leading "../" or "./"
  for (;;) {
    const end = path.indexOf('/', i);
    if (end === -1 || dotSegmentKind(path, i, end) === 0) break;
    i = end + 1;
  }
  // D. the input is exactly "." or ".."
  if (i < n && path.charCodeAt(i) !== SLASH && path.indexOf('/', i) === -1 && dotSegmentKind(path, i, n) !== 0) return '';
  // E. a first segment without a leading "/" moves to the output as it is
  if (i < n && path.charCodeAt(i) !== SLASH) {
    let end = path.indexOf('/', i);
    if (end === -1) end = n;
    output.push(path.slice(i, end));
    i = end;
  }
  // Now the input is empty or starts with "/".
  while (i < n) {
    let end = path.indexOf('/', i + 1);
    if (end === -1) end = n;
    const kind = dotSegmentKind(path, i + 1, end);
    if (kind === 1) {
      // B. "/./" or a final "/." becomes "/"
      if (end === n) output.push('/');
      i = end;
    } else if (kind === 2) {
      // C. "/../" or a final "/.." becomes "/", and the last output segment goes
      output.pop();
      if (end === n) output.push('/');
      i = end;
    } else {
      // E. move "/segment" to the output
      output.push(path.slice(i, end));
      i = end;
    }
  }
  return output.join('');
}
