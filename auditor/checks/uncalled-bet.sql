-- check: uncalled-bet
-- title: Uncalled bet not returned, or the wrong amount returned
-- severity: error
-- category: violation
-- group: settlement
-- scope: store
-- rationale: The part of a bet or raise that nobody called is not in the pot: it goes
--   back to the bettor before the pot is awarded. Returning too little hands the excess to
--   the winner; returning too much takes chips out of a called pot. Where the format
--   writes no return line (PokerStars before 2008, some converters) the replay infers
--   the return from the total pot and the collected amounts (hand_results.returned_basis
--   'inferred', returned_from); a hand whose lines say the chips stayed in the pot
--   contradicts the return and is reported. An inferred return that neither the hand's
--   lines nor the player's stack in their next hand at the table support is a record
--   finding.
WITH unsupported AS (  -- inferred returns no line of the hand supports: few or none
  SELECT r.hand_id, r.seat, r.player, r.end_stack_recorded
  FROM hand_results r
  WHERE r.edition = $edition AND r.returned_basis = 'inferred' AND r.returned_from IS NULL
), unsupported_at AS MATERIALIZED (  -- first, so that hands are never joined to all of their table's
  SELECT u.*, h.table_name, h.tournament_id, h.started_at FROM unsupported u JOIN hands h USING (hand_id)
), next_stack AS (  -- the player's stack in their next hand at the same table
  SELECT u.hand_id, u.seat, arg_min(s.starting_stack, n.started_at) AS starting_stack
  FROM unsupported_at u
  JOIN hands n ON n.table_name = u.table_name AND n.tournament_id IS NOT DISTINCT FROM u.tournament_id
              AND n.started_at > u.started_at
  JOIN seats s ON s.hand_id = n.hand_id AND s.player = u.player
  GROUP BY ALL
), unsupported_left AS (
  SELECT u.hand_id, u.seat FROM unsupported u LEFT JOIN next_stack x USING (hand_id, seat)
  WHERE x.starting_stack IS DISTINCT FROM u.end_stack_recorded
)
SELECT r.hand_id, 'summary' AS street, NULL::INTEGER AS seq, r.seat, r.player,
       chips(r.returned_expected, h.amount_scale) AS expected,
       CASE WHEN r.returned_basis = 'inferred' THEN 'no return recorded' ELSE chips(r.returned_recorded, h.amount_scale) END AS actual,
       who(r.seat, r.player) || CASE
         WHEN r.returned_basis = 'inferred' THEN ' had ' || chips(r.returned_expected, h.amount_scale) ||
              ' uncalled; the history writes no return, and neither its total pot, its collected amounts nor the player''s next stack at the table show whether it went back.'
         WHEN r.returned_recorded = 0 THEN ' should have had ' || chips(r.returned_expected, h.amount_scale) || ' uncalled returned, but nothing was returned.'
         WHEN r.returned_expected = 0 THEN ' had ' || chips(r.returned_recorded, h.amount_scale) || ' returned as uncalled, but the bet had been called in full.'
         ELSE ' had ' || chips(r.returned_recorded, h.amount_scale) || ' returned as uncalled; the uncalled part was ' || chips(r.returned_expected, h.amount_scale) || '.'
       END AS message,
       coalesce(r.returned_line, h.last_line) AS line_no,
       CASE WHEN r.returned_basis = 'inferred' THEN 'record' END AS category,
       CASE WHEN r.returned_basis = 'inferred' THEN 'an implied return the record cannot support' END AS category_basis
FROM hand_results r JOIN hands h USING (hand_id)
WHERE r.edition = $edition
  AND r.returned_recorded IS NOT NULL
  AND (r.returned_recorded <> r.returned_expected
       OR (r.returned_basis = 'inferred' AND (r.hand_id, r.seat) IN (SELECT (hand_id, seat) FROM unsupported_left)))
ORDER BY r.hand_id, r.seat
