-- check: unread-lines
-- title: Lines of the hand not understood: kept, and what they could change not judged
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: A line the parser does not understand (a wording no table of its site
--   holds yet) does not reject its hand: it is kept as an unread event, as written, and
--   the hand is stored only where its understood events account for every amount the
--   record states (total pot, rake, collects), so the line moved no chip the record
--   counts. Everything else is judged. A violation that such a line could change (one on
--   its street or after it, where the line starts with a seated player's name) is
--   reported as a record finding, never as a violation (docs/semantics.md, "Lines not
--   understood"). One finding a hand says which lines were not read.
WITH unread AS (
  SELECT e.hand_id, count(*) AS n,
         arg_min({'street': e.street, 'line_no': e.line_no, 'text': e.text}, e.seq) AS f,
         string_agg(CAST(e.line_no AS VARCHAR), ', ' ORDER BY e.seq) AS line_nos,
         count(e.seat) AS naming_seats
  FROM events e
  WHERE e.kind = 'unread'
  GROUP BY e.hand_id
)
SELECT u.hand_id, u.f.street AS street, NULL::INTEGER AS seq, NULL::SMALLINT AS seat, NULL AS player,
       'every line of the hand read' AS expected,
       CASE WHEN u.n = 1 THEN '1 line not understood' ELSE CAST(u.n AS VARCHAR) || ' lines not understood' END AS actual,
       'The hand''s ' || CASE WHEN u.n = 1 THEN 'line ' ELSE 'lines ' END || u.line_nos
       || CASE WHEN u.n = 1 THEN ' was' ELSE ' were' END || ' not understood (the first: '''
       || trim(u.f.text) || '''). Its chips reconcile without '
       || CASE WHEN u.n = 1 THEN 'it' ELSE 'them' END
       || CASE WHEN u.naming_seats > 0
               THEN '; a violation on the street of a line that names a seated player, or after it, is reported as a record finding'
               ELSE '' END
       || '.' AS message,
       u.f.line_no AS line_no
FROM unread u
ORDER BY u.hand_id
