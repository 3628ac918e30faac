-- check: blind-level
-- title: Blinds or antes that do not match the level, or levels out of step between tables
-- severity: error
-- category: violation
-- group: table
-- scope: table
-- judges: rules and recommended procedures (Rule 23 the level of each hand; RP-11 the split of a short big-blind-ante payer, a departure at most)
-- rationale: Every hand is played at the level in force when it starts: its blinds and
--   antes are that level's amounts (a player short of chips posts what they have, all-in).
--   A new level applies from the next hand, at every table of the tournament at once, and
--   one level has the same amounts at every table. A big-blind ante (one player posts the
--   table's ante) and per-player antes are both legitimate formats (see the catalog); each is
--   compared only with hands of its own format. No-limit and pot-limit headers state the
--   blinds; for fixed-limit games the level's amounts are the ones most posted at it.
--   A big-blind-ante payer who cannot post both splits what they have between the live
--   blind and the dead ante; RP-11 recommends an order (2019 the ante first, 2024 the big
--   blind first; earlier editions have no big blind ante format). The replay plays the split
--   posted; a history that posted another split than the edition recommends is reported
--   once, as a departure from RP-11 (column rp; a house profile declaring its own split,
--   bb_ante_order, makes it a departure from that policy instead), never a violation: a
--   Recommended Procedure recommends (PHH records no split of its own: its format posts
--   antes first, bba_split_by_format).
--   Headers are metadata, posts are the record (docs/semantics.md, "Headers and posts"):
--   a no-limit or pot-limit hand whose small and big blind are both posted in full, and
--   both at other amounts than its header states, was played at the posted amounts (the
--   replay judges its betting by them). That is one `record` finding naming the header
--   and the posts, not a violation of each post; the hand's posts are then judged against
--   each other, and its antes against the ante most of its own players posted.
WITH th AS (
  SELECT t.*, coalesce(t.bb_ante, false) AS bba,
         coalesce(t.betting <> 'fixed-limit' AND NOT coalesce(t.sb_all_in, true) AND NOT coalesce(t.bb_all_in, true)
                  AND t.sb_amount <> t.small_blind AND t.bb_amount <> t.big_blind, false) AS header_off
  FROM table_hands t WHERE t.is_tournament
), own_ante AS (  -- the ante most of a hand's players posted in full
  SELECT hand_id, mode(amount) AS ante_own FROM events WHERE kind = 'ante' AND NOT all_in GROUP BY hand_id
), lvl AS (  -- the amounts of each level of each tournament and game, as most hands post them
  SELECT tournament_key, level, variant, betting,
         mode(small_blind) AS sb_mode, mode(big_blind) AS bb_mode,
         mode(sb_amount) FILTER (WHERE NOT sb_all_in) AS sb_posted, mode(bb_amount) FILTER (WHERE NOT bb_all_in) AS bb_posted,
         count(DISTINCT table_name) AS n_tables
  FROM th GROUP BY ALL
), ante_lvl AS (  -- a big-blind-ante payer who went all-in posting says nothing of the full ante
  SELECT tournament_key, level, variant, bba, mode(ante_full) AS ante_mode
  FROM th WHERE ante_full IS NOT NULL AND NOT (bba AND coalesce(bb_all_in, false)) AND NOT header_off GROUP BY ALL
), firsts AS (
  SELECT tournament_key, level, min(started_at) AS first_at
  FROM th WHERE level IS NOT NULL AND started_at IS NOT NULL GROUP BY tournament_key, level
), rank AS (  -- the order of levels: their number (Roman or Arabic), else the order first seen
  SELECT *, coalesce(level_no(level), dense_rank() OVER (PARTITION BY tournament_key ORDER BY first_at)) AS level_no FROM firsts
), in_view AS (  -- when each table of the tournament is in the history
  SELECT tournament_key, table_name, min(started_at) AS from_at, max(started_at) AS to_at FROM th GROUP BY ALL
), expect AS (
  SELECT th.*, l.n_tables,
         CASE WHEN th.header_off THEN th.sb_amount WHEN th.betting = 'fixed-limit' THEN l.sb_posted ELSE th.small_blind END AS sb_exp,
         CASE WHEN th.header_off THEN th.bb_amount WHEN th.betting = 'fixed-limit' THEN l.bb_posted ELSE th.big_blind END AS bb_exp,
         l.sb_mode, l.bb_mode, CASE WHEN th.header_off THEN o.ante_own ELSE a.ante_mode END AS ante_mode, o.ante_own
  FROM th JOIN lvl l USING (tournament_key, level, variant, betting)
  LEFT JOIN ante_lvl a ON a.tournament_key = th.tournament_key AND a.level IS NOT DISTINCT FROM th.level
                      AND a.variant = th.variant AND a.bba = th.bba
  LEFT JOIN own_ante o ON o.hand_id = th.hand_id
), bba_short AS (  -- RP-11: the big-blind-ante payer who could not post both the blind and the ante
  SELECT x.hand_id, x.level, x.amount_scale, a.seat, a.player, a.amount AS ante_posted,
         coalesce(b.amount, 0) AS blind_posted, a.amount + coalesce(b.amount, 0) AS total,
         -- the full ante: the level's, else the one the hand itself posted in full (its payer's
         -- 'posts the ante 100' before his big blind all-in for 50)
         x.bb_exp AS bb_full, coalesce(x.ante_mode, x.ante_own) AS ante_full,
         coalesce(b.seq, a.seq) AS seq, coalesce(b.line_no, a.line_no) AS line_no
  FROM expect x
  JOIN events a ON a.hand_id = x.hand_id AND a.kind = 'ante'
  LEFT JOIN events b ON b.hand_id = x.hand_id AND b.kind = 'big_blind' AND b.seat = a.seat
  WHERE x.bba AND NOT bba_split_by_format(x.format) AND (a.all_in OR coalesce(b.all_in, false))
    AND a.amount + coalesce(b.amount, 0) < coalesce(x.ante_mode, x.ante_own) + x.bb_exp
), bba_split AS (
  SELECT *, CASE WHEN $bb_ante_order = 'big-blind-first' THEN least(total, bb_full)
                 ELSE total - least(total, ante_full) END AS blind_expected
  FROM bba_short WHERE $bb_ante_order IS NOT NULL  -- before 2019: no big blind ante format, no split to judge
), posts AS (  -- every blind and ante post against the hand's level
  SELECT x.hand_id, e.street, e.seq, e.seat, e.player, e.kind, e.amount, e.all_in, e.line_no, x.level, x.amount_scale,
         CASE e.kind WHEN 'small_blind' THEN x.sb_exp WHEN 'big_blind' THEN x.bb_exp ELSE x.ante_mode END AS exp
  FROM expect x JOIN events e USING (hand_id)
  WHERE e.kind IN ('small_blind', 'big_blind', 'ante')
    AND (e.kind <> 'big_blind' OR e.seq = x.bb_seq) AND (e.kind <> 'small_blind' OR e.seq = x.sb_seq)
    AND NOT (e.kind IN ('ante', 'big_blind') AND EXISTS (SELECT 1 FROM bba_short b WHERE b.hand_id = x.hand_id AND b.seat = e.seat))
)
SELECT p.hand_id, p.street, p.seq, p.seat, p.player,
       chips(p.exp, p.amount_scale) AS expected, chips(p.amount, p.amount_scale) AS actual,
       who(p.seat, p.player) || ' posted ' || replace(p.kind, '_', ' ') || ' ' || chips(p.amount, p.amount_scale) ||
       CASE WHEN p.all_in THEN ' all-in' ELSE '' END || ', but level ' || coalesce(p.level, '?') || '''s ' ||
       replace(p.kind, '_', ' ') || ' is ' || chips(p.exp, p.amount_scale) ||
       CASE WHEN p.amount < p.exp AND NOT p.all_in THEN ' (a player short of chips posts all-in; this one was not)' ELSE '' END || '.' AS message,
       p.line_no, NULL AS category, NULL AS category_basis, NULL AS house_policy, NULL AS rp
FROM posts p
WHERE p.exp IS NOT NULL AND p.amount <> p.exp AND NOT (p.all_in AND p.amount < p.exp)
UNION ALL
-- one level, different amounts at different tables (or hands) of the same tournament
SELECT x.hand_id, 'preflop', NULL, NULL, NULL,
       chips(x.sb_mode, x.amount_scale) || '/' || chips(x.bb_mode, x.amount_scale),
       chips(x.small_blind, x.amount_scale) || '/' || chips(x.big_blind, x.amount_scale),
       'Table ' || x.table_name || ' plays level ' || x.level || ' at ' || chips(x.small_blind, x.amount_scale) || '/' ||
       chips(x.big_blind, x.amount_scale) || ', but the tournament''s other hands at that level play ' ||
       chips(x.sb_mode, x.amount_scale) || '/' || chips(x.bb_mode, x.amount_scale) || '.',
       x.first_line, NULL, NULL, NULL, NULL
FROM expect x
WHERE x.betting <> 'fixed-limit' AND (x.small_blind IS DISTINCT FROM x.sb_mode OR x.big_blind IS DISTINCT FROM x.bb_mode)
UNION ALL
-- a hand started at an earlier level than the previous hand at its table, or than a hand
-- begun before it at another table of the tournament that was in view at the time
SELECT th.hand_id, 'preflop', NULL, NULL, NULL,
       'level ' || later.level, 'level ' || th.level,
       'This hand started at ' || strftime(th.started_at, '%H:%M:%S') || ' at level ' || th.level ||
       ', but table ' || later.table_name || ' had already started a hand at level ' || later.level || ' (' ||
       later.hand_id || ', ' || strftime(later.started_at, '%H:%M:%S') || '): a new level applies to the next hand at every table.',
       th.first_line, NULL, NULL, NULL, NULL
FROM th
JOIN rank r ON r.tournament_key = th.tournament_key AND r.level = th.level
JOIN LATERAL (
  SELECT x.hand_id, x.table_name, x.level, x.started_at FROM th x
  JOIN rank r2 ON r2.tournament_key = x.tournament_key AND r2.level = x.level
  JOIN in_view v ON v.tournament_key = x.tournament_key AND v.table_name = x.table_name
  WHERE x.tournament_key = th.tournament_key AND r2.level_no > r.level_no AND x.started_at < th.started_at
    AND (x.hand_id = th.prev_hand_id OR (x.table_name <> th.table_name AND v.to_at >= th.started_at))
  ORDER BY x.started_at DESC, x.hand_id LIMIT 1) later ON true  -- of hands begun at once, the first by id
UNION ALL
-- RP-11: the split of a short big-blind-ante payer's chips between the live blind and the dead
-- ante, other than the edition recommends: a departure from the recommendation (column rp), or
-- from the house's declared split (house_policy), never a violation; the replay plays the posts
SELECT b.hand_id, 'preflop', b.seq, b.seat, b.player,
       'big blind ' || chips(b.blind_expected, b.amount_scale) || ', ante ' || chips(b.total - b.blind_expected, b.amount_scale),
       'big blind ' || chips(b.blind_posted, b.amount_scale) || ', ante ' || chips(b.ante_posted, b.amount_scale),
       who(b.seat, b.player) || ' had ' || chips(b.total, b.amount_scale) || ' for the ' || chips(b.bb_full, b.amount_scale) ||
       ' big blind and the ' || chips(b.ante_full, b.amount_scale) || ' big blind ante. RP-11 recommends ' ||
       CASE WHEN $bb_ante_order = 'big-blind-first' THEN 'the big-blind-first calculation' ELSE 'the ante-first calculation' END ||
       ' (' || chips(b.blind_expected, b.amount_scale) || ' the live big blind, ' ||
       chips(b.total - b.blind_expected, b.amount_scale) || ' the dead ante); the history posted ' ||
       chips(b.blind_posted, b.amount_scale) || ' as the blind and ' || chips(b.ante_posted, b.amount_scale) || ' as the ante' ||
       CASE WHEN b.blind_posted = b.total - least(b.total, b.ante_full) THEN ' (the ante first)'
            WHEN b.blind_posted = least(b.total, b.bb_full) THEN ' (the big blind first)' ELSE '' END ||
       ', and the hand was played as posted.',
       b.line_no, NULL, NULL,
       CASE WHEN b.blind_posted = b.total - least(b.total, b.ante_full) THEN 'bb_ante_order=ante-first'
            WHEN b.blind_posted = least(b.total, b.bb_full) THEN 'bb_ante_order=blind-first' END,
       'RP-11'
FROM bba_split b
WHERE b.blind_posted <> b.blind_expected
UNION ALL
-- headers are metadata, posts are the record: the header's blinds disagree with both blinds
-- posted, the hand was played at the posted ones
SELECT x.hand_id, 'preflop', x.bb_seq, NULL, NULL,
       'level ' || coalesce(x.level, '?') || ': ' || chips(x.small_blind, x.amount_scale) || '/' || chips(x.big_blind, x.amount_scale),
       'posted ' || chips(x.sb_amount, x.amount_scale) || '/' || chips(x.bb_amount, x.amount_scale) ||
       coalesce(', ante ' || chips(x.ante_mode, x.amount_scale), ''),
       'The header puts this hand at level ' || coalesce(x.level, '?') || ', ' || chips(x.small_blind, x.amount_scale) || '/' ||
       chips(x.big_blind, x.amount_scale) || ', but ' || who(x.sb_seat, x.sb_player) || ' posted the small blind ' ||
       chips(x.sb_amount, x.amount_scale) || ' and ' || who(x.bb_seat, x.bb_player) || ' the big blind ' ||
       chips(x.bb_amount, x.amount_scale) ||
       coalesce(' (level ' || (SELECT min(l.level) FROM lvl l WHERE l.tournament_key = x.tournament_key
                                 AND l.level IS DISTINCT FROM x.level AND l.sb_mode = x.sb_amount AND l.bb_mode = x.bb_amount) ||
                '''s blinds)', '') || coalesce(', with antes of ' || chips(x.ante_mode, x.amount_scale), '') ||
       ': the posts are the record, and the hand''s betting is judged by them.',
       x.first_line, 'record',
       'the header states other blinds than both blinds posted in full: a header is metadata, the posts are the record',
       NULL, NULL
FROM expect x
WHERE x.header_off
ORDER BY 1
