// RFC 3986 §5.2.4 Remove Dot Segments.
//
// The RFC states the algorithm as rules A–E that rewrite an input buffer. This is
// the same algorithm over indices: rules A and D can only fire while the input does
// not yet start with "/", and after any rule but A the input starts with "/" (or is
// empty), so the loop runs A/D once, then B, C and E over "/"-led segments. Output
// pieces are "/segment" (or one leading "segment"), so rule C's "remove the last
// segment and its preceding '/'" is popping the last piece. A test checks this
// against a literal transcription of rules A–E.

const SLASH = 0x2f;
const DOT = 0x2e;

/** Whether `path` has a "." or ".." segment, i.e. whether removeDotSegments can change it. */
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
    if (path.startsWith('../', i)) i += 3;
    else if (path.startsWith('./', i)) i += 2;
    else break;
  }
  // D. the input is exactly "." or ".."
  const rest = n - i;
  if ((rest === 1 && path.charCodeAt(i) === DOT) || (rest === 2 && path.startsWith('..', i))) return '';
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
    const length = end - i - 1;
    if (length === 1 && path.charCodeAt(i + 1) === DOT) {
      // B. "/./" or a final "/." becomes "/"
      if (end === n) output.push('/');
      i = end;
    } else if (length === 2 && path.charCodeAt(i + 1) === DOT && path.charCodeAt(i + 2) === DOT) {
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
