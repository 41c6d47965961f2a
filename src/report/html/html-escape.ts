// Escaping for the two contexts the report writes data into.

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML content and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * `value` as JSON safe inside `<script type="application/json">`: every `<` is written
 * `\u003c` (JSON has `<` only inside strings, where the escape means the same), so no
 * `</script>` or `<!--` can end or alter the element (HTML §4.12.1.3).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}
