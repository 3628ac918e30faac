-- check: pot-limit-overbet
-- title: Pot-limit bet or raise above the pot
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: In pot-limit the largest bet is the pot after the bettor's call (pre-flop a
--   short all-in blind counts as a full blind); a pot-limit-preflop game is pot-limit
--   before the flop only. A larger bet that stands overcharges
--   every caller; the rules reduce it to the pot.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       'at most ' || chips(d.max_raise_to, h.amount_scale) AS expected,
       chips(d.amount_to, h.amount_scale) AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || CASE WHEN d.kind = 'bet' THEN ' bet ' ELSE ' raised to ' END ||
       chips(d.amount_to, h.amount_scale) || ', more than the pot-limit maximum of ' || chips(d.max_raise_to, h.amount_scale) || '.' AS message,
       d.line_no
FROM decisions d JOIN hands h USING (hand_id)
WHERE d.edition = $edition
  AND (h.betting = 'pot-limit' OR h.betting = 'pot-limit-preflop' AND d.street = 'preflop')
  AND d.action_class = 'over-limit'
ORDER BY d.hand_id, d.seq
