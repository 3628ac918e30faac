-- check: uncalled-bet
-- title: Uncalled bet not returned, or the wrong amount returned
-- severity: error
-- category: violation
-- group: settlement
-- scope: store
-- judges: rules
-- rationale: The part of a bet or raise that nobody called is not in the pot: it goes
--   back to the bettor before the pot is awarded. Returning too little hands the excess to
--   the winner; returning too much takes chips out of a called pot. A return of the wrong
--   size is a violation where it changed what the player ended with. Where what the seat
--   got back in all is right (the recorded return and win add up to the rules' return and
--   win, less the rake where the seat won the whole pot), no chip moved wrongly: the
--   record leaves the return out (walks written by WPN and Run It Once with no return
--   line, converters' walks) or writes chips of the pot as returned; a record finding
--   whose message says the end stack is right and what the lines say. So is a return
--   line that only the record's own other lines contradict: the total pot line agrees
--   with the uncalled amount the bets leave and the collects with that total (Run It Once
--   writing the collect's amount in the return line), unless the player's stack in their
--   next hand at the table shows the lines' end stack. Where the format writes no return
--   line (PokerStars before 2008, some converters) the replay infers the return from the
--   total pot and the collected amounts (hand_results.returned_basis 'inferred',
--   returned_from); a hand whose lines say the chips stayed in the pot contradicts the
--   return and is reported. An inferred return that neither the hand's lines nor the
--   player's stack in their next hand at the table support is a record finding.
WITH wrong AS MATERIALIZED (  -- recorded returns of the wrong size: few rows
  SELECT r.* FROM hand_results r
  WHERE r.edition = $edition AND r.returned_basis = 'recorded' AND r.returned_recorded <> r.returned_expected
), hand_facts AS (  -- of their hands: the chips put in, the rules' returns, the seats that collect
  SELECT r.hand_id, sum(r.contributed) AS contributed, sum(r.returned_expected) AS returned_exp,
         count(*) FILTER (WHERE r.won_recorded > 0) AS n_winners
  FROM hand_results r WHERE r.edition = $edition AND r.hand_id IN (SELECT hand_id FROM wrong) GROUP BY ALL
), hand_lines AS (  -- of their hands: the house's money, the stated total pot and rake, the collects
  SELECT hand_id,
         coalesce(sum(amount) FILTER (WHERE kind = 'house_added'), 0) AS added,
         max(amount) FILTER (WHERE kind = 'total_pot' AND inferred_from IS NULL) AS total_stated,
         coalesce(max(to_amount) FILTER (WHERE kind = 'total_pot'), 0) AS rake,
         sum(amount) FILTER (WHERE kind = 'collect') AS collected
  FROM events WHERE hand_id IN (SELECT hand_id FROM wrong) GROUP BY ALL
), settled AS (  -- each wrong return: does the seat's end stack come out right, or do the record's lines contradict it?
  SELECT w.hand_id, w.seat,
         -- what the rules give the seat from the pot: its share, or, where it collects alone and
         -- the rules give it the whole pot (or its winner is not known), the pot less the rake
         CASE WHEN w.won_expected IS NOT NULL AND w.returned_recorded + w.won_recorded = w.returned_expected + w.won_expected
              THEN w.won_expected
              WHEN f.n_winners = 1 AND w.won_recorded > 0
                   AND coalesce(w.won_expected, f.contributed + l.added - f.returned_exp) = f.contributed + l.added - f.returned_exp
              THEN f.contributed + l.added - f.returned_exp - l.rake END AS due_won,
         coalesce(w.won_recorded IS NOT NULL
                  AND w.returned_recorded + w.won_recorded = w.returned_expected + due_won, false) AS stack_right,
         -- the total pot line leaves the rules' return out of the pot, the collects add up to it, the return line alone differs
         coalesce(w.returned_recorded > w.returned_expected AND l.total_stated IS NOT NULL
                  AND l.total_stated = f.contributed + l.added - f.returned_exp
                  AND l.collected + l.rake = l.total_stated, false) AS contradicted,
         l.total_stated, l.collected, l.rake, w.won_expected IS NULL AS winner_unknown
  FROM wrong w JOIN hand_facts f USING (hand_id) JOIN hand_lines l USING (hand_id)
), unsupported AS (  -- inferred returns no line of the hand supports, and returns only the record contradicts: few or none
  SELECT r.hand_id, r.seat, r.player, r.end_stack_recorded, r.end_stack_expected
  FROM hand_results r
  WHERE r.edition = $edition AND r.returned_basis = 'inferred' AND r.returned_from IS NULL
  UNION ALL
  SELECT r.hand_id, r.seat, r.player, r.end_stack_recorded, r.end_stack_expected
  FROM wrong r JOIN settled s USING (hand_id, seat) WHERE s.contradicted AND NOT s.stack_right
), unsupported_at AS MATERIALIZED (  -- first, so that hands are never joined to all of their table's
  SELECT u.*, h.table_name, h.tournament_id, h.started_at FROM unsupported u JOIN hands h USING (hand_id)
), next_stack AS (  -- the player's stack in their next hand at the same table
  SELECT u.hand_id, u.seat, arg_min(s.starting_stack, n.started_at) AS starting_stack
  FROM unsupported_at u
  JOIN hands n ON n.table_name = u.table_name AND n.tournament_id IS NOT DISTINCT FROM u.tournament_id
              AND n.started_at > u.started_at
  JOIN seats s ON s.hand_id = n.hand_id AND s.player = u.player
  GROUP BY ALL
), unsupported_left AS (  -- the next stack is not the one the lines give
  SELECT u.hand_id, u.seat FROM unsupported u LEFT JOIN next_stack x USING (hand_id, seat)
  WHERE x.starting_stack IS DISTINCT FROM u.end_stack_recorded
), judged AS MATERIALIZED (
  SELECT r.*, h.amount_scale, h.last_line,
         coalesce(s.stack_right, false) AS stack_right,
         coalesce(s.contradicted AND NOT s.stack_right
                  AND (r.hand_id, r.seat) IN (SELECT (hand_id, seat) FROM unsupported_left), false) AS contradicted,
         s.total_stated, s.collected, s.rake, s.due_won, s.winner_unknown
  FROM hand_results r JOIN hands h USING (hand_id) LEFT JOIN settled s USING (hand_id, seat)
  WHERE r.edition = $edition
    AND r.returned_recorded IS NOT NULL
    AND (r.returned_recorded <> r.returned_expected
         OR (r.returned_basis = 'inferred' AND (r.hand_id, r.seat) IN (SELECT (hand_id, seat) FROM unsupported_left)))
)
SELECT r.hand_id, 'summary' AS street, NULL::INTEGER AS seq, r.seat, r.player,
       chips(r.returned_expected, r.amount_scale) AS expected,
       CASE WHEN r.returned_basis = 'inferred' THEN 'no return recorded' ELSE chips(r.returned_recorded, r.amount_scale) END AS actual,
       who(r.seat, r.player) || CASE
         WHEN r.returned_basis = 'inferred' THEN ' had ' || chips(r.returned_expected, r.amount_scale) ||
              ' uncalled; the history writes no return, and neither its total pot, its collected amounts nor the player''s next stack at the table show whether it went back.'
         WHEN r.stack_right THEN ' had ' || chips(r.returned_expected, r.amount_scale) || ' uncalled; the history writes ' ||
              CASE WHEN r.returned_recorded = 0 THEN 'no return' ELSE chips(r.returned_recorded, r.amount_scale) || ' returned' END ||
              ' and ' || chips(r.won_recorded, r.amount_scale) || ' won, ' ||
              chips(r.returned_recorded + r.won_recorded, r.amount_scale) || ' in all, as the rules give (' ||
              chips(r.returned_expected, r.amount_scale) || ' returned, ' || chips(r.due_won, r.amount_scale) || ' won' ||
              CASE WHEN r.due_won IS DISTINCT FROM r.won_expected AND r.rake > 0
                   THEN ' after the rake ' || chips(r.rake, r.amount_scale) ELSE '' END ||
              CASE WHEN r.winner_unknown THEN ', the whole pot, which this seat alone collects' ELSE '' END ||
              '): the end stack is right; the record ' ||
              CASE WHEN r.returned_recorded = 0 THEN 'leaves the return out and counts the uncalled chips in the win.'
                   WHEN r.returned_recorded > r.returned_expected THEN 'writes chips of the pot as returned.'
                   ELSE 'writes uncalled chips as won.' END
         WHEN r.contradicted THEN ' had ' || chips(r.returned_expected, r.amount_scale) || ' uncalled; the history writes ' ||
              chips(r.returned_recorded, r.amount_scale) || ' returned, but its own total pot (' || chips(r.total_stated, r.amount_scale) ||
              ') and collects (' || chips(r.collected, r.amount_scale) ||
              CASE WHEN r.rake > 0 THEN ', with the rake ' || chips(r.rake, r.amount_scale) ELSE '' END ||
              ') leave ' || chips(r.returned_expected, r.amount_scale) ||
              ' returned: the record contradicts itself, and no line nor the player''s next stack at the table shows that the end stack changed.'
         WHEN r.returned_recorded = 0 THEN ' should have had ' || chips(r.returned_expected, r.amount_scale) || ' uncalled returned, but nothing was returned.'
         WHEN r.returned_expected = 0 THEN ' had ' || chips(r.returned_recorded, r.amount_scale) || ' returned as uncalled, but the bet had been called in full.'
         ELSE ' had ' || chips(r.returned_recorded, r.amount_scale) || ' returned as uncalled; the uncalled part was ' || chips(r.returned_expected, r.amount_scale) || '.'
       END AS message,
       coalesce(r.returned_line, c.collect_line, r.last_line) AS line_no,  -- the return, else the seat's collect
       CASE WHEN r.returned_basis = 'inferred' OR r.stack_right OR r.contradicted THEN 'record' END AS category,
       CASE WHEN r.returned_basis = 'inferred' THEN 'an implied return the record cannot support'
            WHEN r.stack_right THEN 'the end stack is right: the record misstates or leaves out the return'
            WHEN r.contradicted THEN 'a return line the record''s own total pot and collects contradict' END AS category_basis
FROM judged r
LEFT JOIN (  -- the seat's first collect line, for a finding with no return line to point at
  SELECT p.hand_id, p.seat, min(p.line_no) AS collect_line FROM pot_shares p SEMI JOIN judged j USING (hand_id, seat)
  WHERE p.edition = $edition AND p.recorded > 0 GROUP BY ALL
) c USING (hand_id, seat)
ORDER BY r.hand_id, r.seat
