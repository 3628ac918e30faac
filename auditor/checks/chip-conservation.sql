-- check: chip-conservation
-- title: Chips awarded and returned differ from chips put in
-- severity: error
-- category: violation
-- group: award
-- scope: hand
-- precedence: 4
-- rationale: Every chip put into a hand comes back out as a return, an award or the
--   recorded rake, and the history's own total pot must equal the chips in the pot.
--   Chips that appear or vanish are reported here. A difference that is exactly a
--   misstated uncalled bet is left to the uncalled-bet check. Chips awarded that were
--   not in the pot (or not awarded) are a violation; a total pot line that differs
--   from the chips put in while the awards add up is the history contradicting itself,
--   a record finding. Money the house adds to a pot (house_added) is put in too.
WITH added AS (  -- money the house added: few hands, none at most sites
  SELECT hand_id, sum(amount) AS added FROM events WHERE kind = 'house_added' GROUP BY ALL
), flow AS (
  SELECT r.hand_id,
         sum(r.contributed) + coalesce(any_value(a.added), 0) AS put_in,
         sum(coalesce(r.returned_recorded, r.returned_expected)) AS returned,
         sum(r.returned_expected) AS returned_exp,
         sum(r.won_recorded) AS awarded,
         count(r.won_recorded) AS n_recorded,
         count(*) AS n
  FROM hand_results r LEFT JOIN added a USING (hand_id) WHERE r.edition = $edition GROUP BY ALL
), claims AS (
  SELECT hand_id, max(amount) FILTER (WHERE kind = 'total_pot') AS total_pot,
         coalesce(max(to_amount) FILTER (WHERE kind = 'total_pot'), 0) AS rake,
         max(line_no) FILTER (WHERE kind = 'total_pot') AS line_no,
         count(*) FILTER (WHERE kind IN ('collect', 'finishing_stack', 'winnings')) AS n_outcomes
  FROM events GROUP BY ALL
)
SELECT f.hand_id, 'summary' AS street, NULL::INTEGER AS seq, NULL::SMALLINT AS seat, NULL AS player,
       CASE WHEN c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp)
            THEN 'total pot ' || chips(f.put_in - f.returned, h.amount_scale)
            ELSE 'awarded ' || chips(f.put_in - f.returned - c.rake, h.amount_scale) END AS expected,
       CASE WHEN c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp)
            THEN 'total pot ' || chips(c.total_pot, h.amount_scale)
            ELSE 'awarded ' || chips(f.awarded, h.amount_scale) END AS actual,
       CASE WHEN c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp)
            THEN 'The history states a total pot of ' || chips(c.total_pot, h.amount_scale) || ', but ' ||
                 chips(f.put_in - f.returned, h.amount_scale) || ' was put in and not returned.'
            ELSE chips(f.put_in - f.returned, h.amount_scale) || ' stayed in the pot' ||
                 CASE WHEN c.rake > 0 THEN ' (rake ' || chips(c.rake, h.amount_scale) || ')' ELSE '' END ||
                 ', but ' || chips(f.awarded, h.amount_scale) || ' was awarded.' END AS message,
       coalesce(c.line_no, h.last_line) AS line_no,
       CASE WHEN f.n_recorded = f.n AND c.n_outcomes > 0
                 AND f.awarded NOT IN (f.put_in - f.returned - c.rake, f.put_in - f.returned_exp - c.rake)
            THEN 'violation' ELSE 'record' END AS category
FROM flow f JOIN hands h USING (hand_id) JOIN claims c USING (hand_id)
WHERE (c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp))
   OR (f.n_recorded = f.n AND c.n_outcomes > 0
       AND f.awarded NOT IN (f.put_in - f.returned - c.rake, f.put_in - f.returned_exp - c.rake))
ORDER BY f.hand_id
