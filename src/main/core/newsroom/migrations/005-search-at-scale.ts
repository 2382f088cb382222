/**
 * Newsroom search at 6 million sentences (issue #35, point 10).
 *
 * Row-level security hides the GIN index from a reporter: PostgreSQL may use a condition of the
 * query as an index condition under a policy only if its operator is leakproof, and full-text
 * search's `@@` (ts_match_vq) is not, so every search read every sentence (a sequential scan,
 * checked with EXPLAIN as a reporter). Search therefore goes through `verbatim.visible_matches`,
 * a SECURITY DEFINER function that reads the sentences without the policy and applies the same
 * visibility itself, to the person logged in (`session_user`: inside the function
 * `current_user` is its owner) — with the index. It returns only where the matches are
 * (reporter, transcript, position, rank); the sentences' words are then read under row-level
 * security as before, so what the function says is visible is checked again by the policy.
 * It takes no user or owner argument: nobody can ask it for someone else's view.
 *
 * It returns the newest `newest` matches (search asks for 1,001: its count stops at 1,000), and
 * search ranks those by relevance: "the" over 6 million sentences is millions of matches, and
 * ranking them all took seconds. A rarer word's matches are all ranked.
 *
 * Its owner must bypass row-level security (a superuser, or a role with BYPASSRLS): otherwise it
 * would see only its owner's own rows and every search would come back empty, so the migration
 * refuses to run as anyone else.
 *
 * `toast_tuple_target` and the search column's storage keep each sentence's row small, and its
 * tsvector in it: the word timings (jsonb, most of a row's kilobyte) leave the table for TOAST
 * storage, while the tsvector stays beside the text (MAIN: compressed, moved out only as a last
 * resort), since search reads it for each row it checks. A phrase of common words read 11 times
 * fewer buffers for it (EXPLAIN over 120,000 sentences: 114,000 with the rows whole, or with a
 * smaller target that moved the tsvector out too; 10,000 with this). It applies to rows written
 * from now on (each publish rewrites its transcript's rows).
 */
export const sql = `
DO $$
BEGIN
  IF NOT (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) THEN
    RAISE EXCEPTION 'Newsroom migrations must be run by a role that bypasses row-level security (a superuser, or one with BYPASSRLS), not by %.', current_user;
  END IF;
END $$;

ALTER TABLE verbatim.published_sentences SET (toast_tuple_target = 512);
ALTER TABLE verbatim.published_sentences ALTER COLUMN search SET STORAGE MAIN;

CREATE FUNCTION verbatim.visible_matches(
  query tsquery,
  only_desk text,
  only_reporter name,
  recorded_from timestamptz,
  recorded_before timestamptz,
  only_tag text,
  only_speaker text,
  newest integer
) RETURNS TABLE (reporter name, transcript_id text, "position" integer, recorded_at timestamptz, rank real)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  member_of text[];
  editor_of text[];
  conditions text := '';
BEGIN
  SELECT coalesce(array_agg(d.name), '{}') INTO member_of
    FROM verbatim.desks d WHERE pg_has_role(session_user, d.role_name, 'MEMBER');
  SELECT coalesce(array_agg(m.desk), '{}') INTO editor_of
    FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
    WHERE m.member = session_user AND m.role = 'editor' AND pg_has_role(session_user, d.role_name, 'MEMBER');
  -- Only fixed text is added here; every value is a parameter ($1 to $10).
  IF only_desk IS NOT NULL THEN conditions := conditions || ' AND s.desk = $2'; END IF;
  IF only_reporter IS NOT NULL THEN conditions := conditions || ' AND s.reporter = $3'; END IF;
  IF recorded_from IS NOT NULL THEN conditions := conditions || ' AND s.recorded_at >= $4'; END IF;
  IF recorded_before IS NOT NULL THEN conditions := conditions || ' AND s.recorded_at < $5'; END IF;
  IF only_tag IS NOT NULL THEN
    conditions := conditions || ' AND EXISTS (SELECT 1 FROM verbatim.published_transcripts t
      WHERE t.reporter = s.reporter AND t.transcript_id = s.transcript_id AND $6 = ANY (t.tags))';
  END IF;
  IF only_speaker IS NOT NULL THEN
    conditions := conditions || ' AND (s.speaker = $7 OR EXISTS (SELECT 1 FROM verbatim.published_transcripts t,
        jsonb_array_elements(t.speakers) named
      WHERE t.reporter = s.reporter AND t.transcript_id = s.transcript_id
        AND named->>''label'' = s.speaker AND lower(named->>''name'') = lower($7)))';
  END IF;
  RETURN QUERY EXECUTE
    'SELECT s.reporter, s.transcript_id, s.position, s.recorded_at, ts_rank(s.search, $1)
       FROM verbatim.published_sentences s
      WHERE s.search @@ $1
        AND (s.reporter = session_user
             OR (s.desk = ANY ($9) AND (NOT s.confidential OR s.desk = ANY ($10))))'
    || conditions ||
    ' ORDER BY s.recorded_at DESC, s.reporter, s.transcript_id, s.position LIMIT $8'
    USING query, only_desk, only_reporter, recorded_from, recorded_before, only_tag, only_speaker,
          greatest(0, least(newest, 10000)), member_of, editor_of;
END
$fn$;
`;
