// SQL fragments of the PostgreSQL index that read rows in the shapes the SQLite
// index's converters take (sqlite-rows.ts), so both share one conversion.

/** Columns of a fetch row (alias `f`), its redirect hops as one JSON array (text). */
export const PG_FETCH_COLUMNS = `f.id, f.url_id, f.started_at, f.duration_ms, f.status, f.content_type, f.bytes,
  f.error_code, f.final_url, f.attempts, f.findings, f.anchors, f.represents_url_id, f.etag, f.last_modified,
  f.not_modified::integer AS not_modified, f.method,
  (SELECT coalesce(json_agg(json_build_array(r.from_url, r.to_url, r.status) ORDER BY r.hop), '[]'::json)::text
   FROM redirect AS r WHERE r.fetch_id = f.id) AS redirects`;
