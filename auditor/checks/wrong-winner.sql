-- check: wrong-winner
-- title: Pot awarded to a hand that lost
-- severity: error
-- category: violation
-- group: award
-- scope: hand
-- judges: rules
-- precedence: 3
-- rationale: The tabled cards read for themselves: the best tabled hand wins, and each
--   half of a hi/lo pot is judged apart. A pot, or part of one, paid to a player whose
--   tabled hand lost, taken from the player whose hand won, is reported here. A board run
--   twice (or three times) is judged run by run: each run's share of the pot goes to the
--   best hand on that run's board.
WITH pot AS (
  SELECT hand_id, pot_index, run,
         bool_or(eligible AND recorded < expected) AS someone_short
  FROM pot_shares
  WHERE edition = $edition AND expected IS NOT NULL AND recorded IS NOT NULL
  GROUP BY ALL
)
SELECT s.hand_id, 'showdown' AS street, NULL::INTEGER AS seq, s.seat, st.player,
       chips(s.expected, h.amount_scale) || ' (winners: seats ' || seats_list(winner_seats(p.hi_winners, p.lo_winners)) || ')' AS expected,
       chips(s.recorded, h.amount_scale) AS actual,
       who(s.seat, st.player) || ' was awarded ' || chips(s.recorded, h.amount_scale) || ' from the ' ||
       CASE WHEN p.pot_index = 0 THEN 'main pot' ELSE 'side pot ' || CAST(p.pot_index AS VARCHAR) END ||
       CASE WHEN r.runs > 1 THEN ' on run ' || CAST(p.run AS VARCHAR) || ' of ' || CAST(r.runs AS VARCHAR) ELSE '' END ||
       ' but should have won ' || chips(s.expected, h.amount_scale) || '; the tabled cards show ' ||
       CASE WHEN len(w.winners) = 1 THEN 'seat ' ELSE 'seats ' END || seats_list(w.winners) || ' won it.' AS message,
       coalesce(s.line_no, h.last_line) AS line_no
FROM pot_shares s
JOIN pot q ON q.hand_id = s.hand_id AND q.pot_index = s.pot_index AND q.run = s.run
JOIN pots p ON p.hand_id = s.hand_id AND p.edition = s.edition AND p.pot_index = s.pot_index AND p.run = s.run
JOIN hands h ON h.hand_id = s.hand_id
JOIN (SELECT hand_id, pot_index, max(run) AS runs FROM pots WHERE edition = $edition GROUP BY ALL) r
  ON r.hand_id = s.hand_id AND r.pot_index = s.pot_index
CROSS JOIN LATERAL (SELECT winner_seats(p.hi_winners, p.lo_winners) AS winners) w
LEFT JOIN seats st ON st.hand_id = s.hand_id AND st.seat = s.seat
WHERE s.edition = $edition
  AND p.verified
  AND s.eligible
  AND s.recorded > s.expected
  AND q.someone_short
ORDER BY s.hand_id, s.pot_index, s.run, s.seat
