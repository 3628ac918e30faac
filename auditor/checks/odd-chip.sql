-- check: odd-chip
-- title: Odd chip to the wrong player
-- severity: warning
-- category: violation
-- group: award
-- scope: hand
-- judges: rules
-- precedence: 1
-- rationale: When a pot is split, odd chips go by rule: in board games to the first
--   winner left of the button, in stud and razz to the high card by suit, and in hi/lo the
--   odd chip of the pot goes to the high half. Identical hands winning both halves split
--   as evenly as possible. A split with the right winners and total but the odd chip in
--   the wrong place is reported here, once per pot (per run of a board run twice; how a
--   pot is divided between the runs is not judged: the rules say nothing of it, see
--   docs/semantics.md).
WITH pot AS (
  SELECT s.hand_id, s.pot_index, s.run,
         sum(s.expected) AS exp_total, sum(s.recorded) AS rec_total,
         sum(s.odd_chips) AS odd_total,
         max(abs(s.recorded - s.expected)) AS max_diff,
         list(s.seat ORDER BY s.seat) FILTER (WHERE s.expected > 0) AS exp_winners,
         list(s.seat ORDER BY s.seat) FILTER (WHERE s.recorded > 0) AS rec_winners,
         arg_max(s.seat, s.expected - s.recorded) AS short_seat,
         max(s.expected - s.recorded) AS short_by,
         arg_max(s.seat, s.recorded - s.expected) AS over_seat,
         arg_max(s.line_no, s.recorded - s.expected) AS over_line
  FROM pot_shares s
  WHERE s.edition = $edition AND s.expected IS NOT NULL AND s.recorded IS NOT NULL
  GROUP BY ALL
)
SELECT p.hand_id, 'showdown' AS street, NULL::INTEGER AS seq, p.short_seat AS seat, st.player,
       CASE WHEN p.odd_total = 0 THEN 'split as evenly as possible' ELSE who(p.short_seat, st.player) || ' receives the odd chip' END AS expected,
       who(p.over_seat, so.player) || ' received it' AS actual,
       'The ' || CASE WHEN p.pot_index = 0 THEN 'main pot' ELSE 'side pot ' || CAST(p.pot_index AS VARCHAR) END ||
       CASE WHEN r.runs > 1 THEN ' on run ' || CAST(p.run AS VARCHAR) || ' of ' || CAST(r.runs AS VARCHAR) ELSE '' END ||
       CASE WHEN p.odd_total = 0 THEN ' divides evenly but was split unevenly: ' ELSE ' was split correctly except for the odd chip: ' END || chips(p.short_by, h.amount_scale) || ' went to ' ||
       who(p.over_seat, so.player) || ' instead of ' || who(p.short_seat, st.player) || '.' AS message,
       coalesce(p.over_line, h.last_line) AS line_no
FROM pot p
JOIN hands h USING (hand_id)
JOIN (SELECT hand_id, pot_index, max(run) AS runs FROM pots WHERE edition = $edition GROUP BY ALL) r
  ON r.hand_id = p.hand_id AND r.pot_index = p.pot_index
LEFT JOIN seats st ON st.hand_id = p.hand_id AND st.seat = p.short_seat
LEFT JOIN seats so ON so.hand_id = p.hand_id AND so.seat = p.over_seat
WHERE p.rec_total = p.exp_total
  AND p.max_diff > 0
  -- at most the odd chips of the split; a pot that divides evenly (odd_total 0) split
  -- one chip off, e.g. identical hi/lo hands paid half by half (the Addendum's worked
  -- example: 66 chips 34/32 instead of 33/33), is an odd-chip error too
  AND p.max_diff <= greatest(p.odd_total, h.chip_unit)
  AND p.exp_winners = p.rec_winners
ORDER BY p.hand_id, p.pot_index, p.run
