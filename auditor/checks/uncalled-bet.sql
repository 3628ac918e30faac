-- check: uncalled-bet
-- title: Uncalled bet not returned, or the wrong amount returned
-- severity: error
-- group: settlement
-- rationale: The part of a bet or raise that nobody called is not in the pot: it goes
--   back to the bettor before the pot is awarded. Returning too little hands the excess to
--   the winner; returning too much takes chips out of a called pot.
SELECT r.hand_id, 'summary' AS street, NULL::INTEGER AS seq, r.seat, r.player,
       chips(r.returned_expected, h.amount_scale) AS expected,
       chips(r.returned_recorded, h.amount_scale) AS actual,
       who(r.seat, r.player) || CASE
         WHEN r.returned_recorded = 0 THEN ' should have had ' || chips(r.returned_expected, h.amount_scale) || ' uncalled returned, but nothing was returned.'
         WHEN r.returned_expected = 0 THEN ' had ' || chips(r.returned_recorded, h.amount_scale) || ' returned as uncalled, but the bet had been called in full.'
         ELSE ' had ' || chips(r.returned_recorded, h.amount_scale) || ' returned as uncalled; the uncalled part was ' || chips(r.returned_expected, h.amount_scale) || '.'
       END AS message,
       coalesce(r.returned_line, h.last_line) AS line_no
FROM hand_results r JOIN hands h USING (hand_id)
WHERE r.edition = $edition
  AND r.returned_recorded IS NOT NULL
  AND r.returned_recorded <> r.returned_expected
ORDER BY r.hand_id, r.seat
