-- check: stack-continuity
-- title: A player's stack changed between hands at a table
-- severity: warning
-- category: violation
-- group: table
-- scope: table
-- rationale: Chips stay in view and in play: the stack a player starts a hand with is
--   the stack they ended the previous hand at the table with, plus any re-buy or add-on
--   recorded in between. A difference means chips appeared or vanished between hands
--   (taken out of view, lost and found, a miscount). When two or more players' stacks
--   changed at once the history is missing hands there (every hand moves at least the
--   blinds): that gap is reported once, and nothing else is judged across it. A player
--   moved in from another table is compared with their last hand there when the move is
--   in view (that table's history goes on without them, and they sit down within ten
--   minutes). A re-deal (same players, seats, stacks and button as the hand before) is
--   not a new hand and is not compared. A gap (hands missing from the history) is a
--   record finding: the history does not hold what the audit needs there.
WITH moved AS (  -- a player new at the table: their last hand at another table of the tournament
  SELECT t.hand_id, s.seat, s.player, s.starting_stack, t.table_name, t.started_at,
         (SELECT arg_max(x.hand_id, x.started_at) FROM table_hands x JOIN seats y USING (hand_id)
           WHERE x.tournament_key = t.tournament_key AND y.player = s.player AND x.table_name <> t.table_name
             AND x.started_at <= t.started_at AND x.hand_id <> t.hand_id) AS from_hand_id
  FROM table_hands t JOIN table_transitions tr USING (hand_id) JOIN seats s ON s.hand_id = t.hand_id
  WHERE t.is_tournament AND NOT tr.gap
    AND NOT EXISTS (SELECT 1 FROM seats p WHERE p.hand_id = t.prev_hand_id AND p.player = s.player)
)
SELECT l.hand_id, 'preflop' AS street, NULL::INTEGER AS seq, l.seat, l.player,
       chips(l.prev_end_stack + l.rebuys + l.addons, h.amount_scale) AS expected,
       chips(l.starting_stack, h.amount_scale) AS actual,
       who(l.seat, l.player) || ' starts with ' || chips(l.starting_stack, h.amount_scale) || ', but ended hand ' ||
       l.prev_hand_id || ' at this table with ' || chips(l.prev_end_stack, h.amount_scale) ||
       CASE WHEN l.rebuys > 0 THEN ' and re-bought ' || chips(l.rebuys, h.amount_scale) ELSE '' END ||
       CASE WHEN l.addons > 0 THEN ' and took an add-on of ' || chips(l.addons, h.amount_scale) ELSE '' END ||
       CASE WHEN l.unbought_continuous THEN ': the chips bought (line ' || l.bought_line || ') are missing from the stack.'
            ELSE ': ' || chips(l.starting_stack - l.prev_end_stack - l.rebuys - l.addons, h.amount_scale) ||
                 ' chips appeared or vanished between the hands; no hand, re-buy or add-on explains it.' END AS message,
       s.line_no, NULL AS category
FROM stack_links l
JOIN table_transitions t USING (hand_id)
JOIN hands h USING (hand_id)
JOIN seats s ON s.hand_id = l.hand_id AND s.seat = l.seat
WHERE t.is_tournament AND NOT t.gap AND NOT t.redeal AND l.continuous IS NOT NULL AND NOT l.continuous
UNION ALL
SELECT t.hand_id, 'preflop', NULL, NULL, NULL,
       'the previous hand at the table', 'hands missing',
       t.n_changed || ' of ' || t.n_linked || ' players'' stacks changed between hand ' || t.prev_hand_id ||
       ' and this one' || coalesce(' (' || t.seconds_since_prev || ' s apart' ||
       ', button seat ' || t.prev_button_seat || ' then ' || t.button_seat || ')', '') ||
       ': hands are missing from the history here, so stacks, blinds and seating are not compared across the gap.',
       t.first_line, 'record'
FROM table_transitions t
WHERE t.is_tournament AND t.gap
UNION ALL
SELECT m.hand_id, 'preflop', NULL, m.seat, m.player,
       chips(c.end_stack + c.rebuys + c.addons, h.amount_scale), chips(m.starting_stack, h.amount_scale),
       who(m.seat, m.player) || ' moved from table ' || f.table_name || ' and starts with ' || chips(m.starting_stack, h.amount_scale) ||
       ', but ended their last hand there (' || m.from_hand_id || ') with ' || chips(c.end_stack + c.rebuys + c.addons, h.amount_scale) ||
       ': chips appeared or vanished in the move.',
       s.line_no, NULL
FROM moved m
JOIN table_hands f ON f.hand_id = m.from_hand_id
JOIN hand_chips c ON c.hand_id = m.from_hand_id AND c.player = m.player
JOIN hands h ON h.hand_id = m.hand_id
JOIN seats s ON s.hand_id = m.hand_id AND s.seat = m.seat
WHERE c.end_stack IS NOT NULL
  -- judged only when the move is in view: the old table's history goes on without them
  -- and they sit down here within ten minutes (else they may have played unrecorded hands)
  AND f.next_hand_id IS NOT NULL AND date_diff('second', f.started_at, m.started_at) <= 600
  AND m.starting_stack NOT IN (c.end_stack + c.rebuys + c.addons, c.end_stack_alt + c.rebuys + c.addons)
ORDER BY 1, 4
