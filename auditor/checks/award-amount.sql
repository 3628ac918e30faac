-- check: award-amount
-- title: Pots paid in the wrong amounts
-- severity: error
-- category: violation
-- group: award
-- scope: hand
-- judges: rules
-- precedence: 5
-- rationale: Each pot is sized and split apart: a player all-in for less can win from each
--   other player only as much as he put in. Where every pot went to a player who could win
--   it (side-pot) and to the best hand (wrong-winner), and the chips add up
--   (chip-conservation), the pots can still be paid in the wrong amounts: a main pot
--   underpaid to its winner, the difference paid to another player under a side pot's
--   label. Each seat's award over the hand's pots (in each run of a board run more than
--   once) is compared with what the rules give; a seat paid less than that, where another
--   was paid more, is reported, with what he should have had (docs/semantics.md, "Award
--   findings are reported once").
WITH seat_award AS (
  SELECT s.hand_id, s.run, s.seat, sum(s.recorded) AS recorded, sum(s.expected) AS expected,
         min(s.line_no) AS line_no
  FROM pot_shares s JOIN pots p USING (hand_id, edition, pot_index, run)
  WHERE s.edition = $edition AND p.verified AND s.expected IS NOT NULL AND s.recorded IS NOT NULL
  GROUP BY ALL
), overpaid AS (  -- the seats of each run paid more than the rules give
  SELECT hand_id, run, list(seat ORDER BY seat) AS seats
  FROM seat_award WHERE recorded > expected GROUP BY ALL
)
SELECT a.hand_id, 'showdown' AS street, NULL::INTEGER AS seq, a.seat, st.player,
       chips(a.expected, h.amount_scale) AS expected,
       chips(a.recorded, h.amount_scale) AS actual,
       who(a.seat, st.player) || ' was paid ' || chips(a.recorded, h.amount_scale) || ' from the pots' ||
       CASE WHEN r.runs > 1 THEN ' of run ' || CAST(a.run AS VARCHAR) || ' of ' || CAST(r.runs AS VARCHAR) ELSE '' END ||
       ' but should have won ' || chips(a.expected, h.amount_scale) || '; ' ||
       CASE WHEN len(o.seats) = 1 THEN 'seat ' ELSE 'seats ' END || seats_list(o.seats) ||
       ' were paid more than the pots they were in gave them.' AS message,
       coalesce(a.line_no, h.last_line) AS line_no
FROM seat_award a
JOIN overpaid o USING (hand_id, run)
JOIN hands h ON h.hand_id = a.hand_id
JOIN (SELECT hand_id, max(run) AS runs FROM pots WHERE edition = $edition GROUP BY ALL) r ON r.hand_id = a.hand_id
LEFT JOIN seats st ON st.hand_id = a.hand_id AND st.seat = a.seat
WHERE a.recorded < a.expected
ORDER BY a.hand_id, a.run, a.seat
