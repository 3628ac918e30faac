-- check: new-player-seating
-- title: A player new to the table dealt in between the small blind and the button
-- severity: error
-- category: violation
-- group: table
-- scope: table
-- judges: rules
-- rationale: A player joining a table (late registration, alternate, re-entry, broken
--   table, balancing) may take any seat, including the blinds or the button, but is not
--   dealt in between the small blind and the button: that seat would play a round
--   without paying the blinds. PokerStars records such a player as 'out of hand (moved
--   from another table into small blind)' until the button passes. A player is new when
--   they were not seated in the previous hand at the table; not judged across hands
--   missing from the history. The button is where the dead-button rule puts it (Rule 32:
--   the last small blind's seat, or the seat a dead small blind was on, even if empty or
--   taken by the new player, who may get the button), not where the site wrote it: a new
--   player on a seat before a dead button is not between it and the small blind. A
--   button the site wrote elsewhere is the dead-button check's finding. When the rule's
--   button is not known (the hand before had no small blind), or the hand before was
--   heads-up (its small blind had the button), the written one is used.
WITH n AS (
  SELECT t.hand_id, s.seat, s.player, s.line_no, coalesce(t.rule_button, t.button_seat) AS button_seat,
         t.rule_button IS NOT NULL AND t.rule_button IS DISTINCT FROM t.button_seat AS moved, t.first_line,
         coalesce(t.sb_seat, t.expected_sb_seat, t.prev_bb_seat) AS sb_pos,
         coalesce(h.max_seats, 10) AS n_seats
  FROM (SELECT *, CASE WHEN prev_n_dealt >= 3 THEN dead_button_seat END AS rule_button FROM table_transitions) t
  JOIN hands h USING (hand_id)
  JOIN hand_seats s ON s.hand_id = t.hand_id AND s.dealt
  WHERE t.is_tournament AND NOT t.gap AND NOT t.redeal AND NOT t.after_cut AND t.n_dealt >= 3 AND coalesce(t.rule_button, t.button_seat) IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM seats p WHERE p.hand_id = t.prev_hand_id AND p.player = s.player)
)
SELECT hand_id, 'preflop' AS street, NULL::INTEGER AS seq, seat, player,
       'out of the hand until the button passes' AS expected,
       'dealt in at seat ' || seat AS actual,
       who(seat, player) || ' joined the table and was dealt in at once, but sits between the button (seat ' ||
       button_seat || CASE WHEN moved THEN ', where the dead-button rule puts it' ELSE '' END ||
       ') and the small blind (seat ' || sb_pos || '): a new player is not dealt in there.' AS message,
       coalesce(line_no, first_line) AS line_no
FROM n
WHERE sb_pos IS NOT NULL
  AND (seat - button_seat + n_seats) % n_seats > 0
  AND (seat - button_seat + n_seats) % n_seats < (sb_pos - button_seat + n_seats) % n_seats
ORDER BY hand_id, seat
