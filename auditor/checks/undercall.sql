-- check: undercall
-- title: Call for less than owed with chips behind
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: A player with chips behind who calls must put in the full amount owed. An
--   undercall that stands leaves the pot short and the caller in for less than the bet.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       chips(d.to_call, h.amount_scale) AS expected,
       chips(d.committed_after - d.committed_before, h.amount_scale) AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || ' called ' ||
       chips(d.committed_after - d.committed_before, h.amount_scale) || ' but owed ' || chips(d.to_call, h.amount_scale) ||
       ', with ' || chips(d.stack_after, h.amount_scale) || ' still behind.' AS message,
       d.line_no
FROM decisions d JOIN hands h USING (hand_id)
WHERE d.edition = $edition
  AND d.action_class = 'undercall'
ORDER BY d.hand_id, d.seq
