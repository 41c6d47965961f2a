// The text of a page's first <title>, for the page list of a WACZ package. htmlparser2
// never throws on bad markup; the text is whitespace-collapsed and bounded.

import { Parser } from 'htmlparser2';

/** A title longer than this is cut: a page list entry is a label, not a copy of the page. */
const MAX_TITLE_CHARS = 1000;

/** The first `<title>` element's text, entities decoded, or undefined when there is none (or it is empty). */
export function htmlTitle(html: string): string | undefined {
  let depth = 0;
  let text = '';
  let done = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (!done && name === 'title') depth += 1;
      },
      ontext(chunk) {
        if (!done && depth > 0 && text.length <= MAX_TITLE_CHARS) text += chunk;
      },
      onclosetag(name) {
        if (!done && name === 'title' && depth > 0) {
          depth -= 1;
          if (depth === 0) done = true;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const title = text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
  return title === '' ? undefined : title;
}
