-- check: stack-continuity
-- title: A player's stack changed between hands at a table
-- severity: warning
-- category: violation
-- group: table
-- scope: table
-- judges: rules
-- rationale: Chips stay in view and in play: the stack a player starts a hand with is
--   the stack they ended the previous hand at the table with, plus any re-buy or add-on
--   recorded in between. A difference means chips appeared or vanished between hands,
--   which the record does not explain; the finding says only that the stacks do not
--   follow on, never how (it accuses no player of taking chips out of view). When two
--   or more players' stacks changed at once the history is missing hands there (every
--   hand moves at least the blinds): that gap is reported once, and nothing else is
--   judged across it. Nor is a hand judged against a previous hand under its table name
--   that is another table's: fewer than half of the players who ended that hand with
--   chips sit in this one (iPoker names a tournament's tables after the tournament, so
--   the history merges them). A gap or such a table change is a record finding: the
--   history does not hold what the audit needs there. So is a player who starts a hand
--   with more chips than he ended the one before with where the format writes no re-buys
--   or add-ons (records_rebuys(format), declared by its parser, is false: all but
--   PokerStars' and Full Tilt's, docs/sites.md): busted, a re-buy or re-entry the history
--   does not write; not busted, an add-on or re-buy it does not write (iPoker writes the
--   hero's alone), not chips appearing. Chips that vanished stay a violation. A player moved
--   in from another table is compared with their last hand there when the move is in
--   view (that table's history goes on without them, and they sit down within ten
--   minutes). A re-deal (same players, seats, stacks and button as the hand before) is
--   not a new hand and is not compared.
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
       chips(l.prev_end_stack + l.rebuys + l.addons + l.bought_before, h.amount_scale) AS expected,
       chips(l.starting_stack, h.amount_scale) AS actual,
       who(l.seat, l.player) || ' starts with ' || chips(l.starting_stack, h.amount_scale) || ', but ended hand ' ||
       l.prev_hand_id || ' at this table with ' || chips(l.prev_end_stack, h.amount_scale) ||
       CASE WHEN l.rebuys > 0 THEN ' and re-bought ' || chips(l.rebuys, h.amount_scale) ELSE '' END ||
       CASE WHEN l.addons > 0 THEN ' and took an add-on of ' || chips(l.addons, h.amount_scale) ELSE '' END ||
       CASE WHEN l.bought_before > 0 THEN ', and bought ' || chips(l.bought_before, h.amount_scale) || ' before this hand' ELSE '' END ||
       CASE WHEN l.unbought_continuous THEN ': the chips bought (line ' || l.bought_line || ') are missing from the stack.'
            WHEN l.unwritten_rebuy AND l.prev_end_stack = 0 THEN ', busted: a re-buy or re-entry whose chips the history does not write ' ||
                 '(this tool reads re-buys only from the formats that write them, docs/sites.md), not chips appearing.'
            WHEN l.unwritten_rebuy THEN ': ' || chips(l.starting_stack - l.prev_end_stack, h.amount_scale) ||
                 ' more, as a re-buy or add-on whose chips the history does not write would give ' ||
                 '(this tool reads re-buys and add-ons only from the formats that write them, docs/sites.md); not judged.'
            ELSE ': ' || chips(l.starting_stack - l.prev_end_stack - l.rebuys - l.addons - l.bought_before, h.amount_scale) ||
                 ' chips appeared or vanished between the hands; no hand, re-buy or add-on explains it.' END AS message,
       s.line_no, CASE WHEN l.unwritten_rebuy THEN 'record' END AS category
FROM (SELECT l.*, NOT records_rebuys(h.format)
             AND l.rebuys + l.addons + l.bought_before = 0 AND l.starting_stack > l.prev_end_stack AS unwritten_rebuy
      FROM stack_links l JOIN hands h USING (hand_id)) l
JOIN table_transitions t USING (hand_id)
JOIN hands h USING (hand_id)
JOIN seats s ON s.hand_id = l.hand_id AND s.seat = l.seat
WHERE t.is_tournament AND NOT t.gap AND NOT t.redeal AND l.continuous IS NOT NULL AND NOT l.continuous
UNION ALL
SELECT t.hand_id, 'preflop', NULL, NULL, NULL,
       'the previous hand at the table', CASE WHEN t.table_changed AND t.n_changed < 2 THEN 'another table''s hand before' ELSE 'hands missing' END,
       CASE WHEN t.table_changed AND t.n_changed < 2 THEN
            'Only ' || t.n_linked || ' of the ' || t.prev_n_kept || ' players who ended hand ' || t.prev_hand_id ||
            ' with chips ' || CASE WHEN t.n_linked = 1 THEN 'is' ELSE 'are' END || ' seated in this one' ||
            coalesce(' (' || t.seconds_since_prev || ' s apart)', '') ||
            ': the hand before under this table name is not this table''s (a format that names the tables after the ' ||
            'event, as iPoker, merges them), so stacks, blinds and seating are not compared across it.'
       ELSE t.n_changed || ' of ' || t.n_linked || ' players'' stacks changed between hand ' || t.prev_hand_id ||
       ' and this one' || coalesce(' (' || t.seconds_since_prev || ' s apart' ||
       ', button seat ' || t.prev_button_seat || ' then ' || t.button_seat || ')', '') ||
       ': hands are missing from the history here, so stacks, blinds and seating are not compared across the gap.' END,
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
LEFT JOIN hand_chips mc ON mc.hand_id = m.hand_id AND mc.seat = m.seat  -- chips bought before its seat line
WHERE c.end_stack IS NOT NULL
  -- judged only when the move is in view: the old table's history goes on without them
  -- and they sit down here within ten minutes (else they may have played unrecorded hands)
  AND f.next_hand_id IS NOT NULL AND date_diff('second', f.started_at, m.started_at) <= 600
  AND m.starting_stack - coalesce(mc.bought_before, 0) NOT IN (c.end_stack + c.rebuys + c.addons, c.end_stack_alt + c.rebuys + c.addons)
ORDER BY 1, 4
