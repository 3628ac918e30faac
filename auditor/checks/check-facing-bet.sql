-- check: check-facing-bet
-- title: Check recorded when facing a bet
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: A player facing a bet cannot check: he must call, raise or fold. A recorded
--   check facing a bet means the bet was ignored or the history is wrong.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       'call ' || chips(d.to_call, h.amount_scale) || ', raise or fold' AS expected,
       'check' AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || ' checked while facing a bet of ' ||
       chips(d.to_call, h.amount_scale) || ' more.' AS message,
       d.line_no
FROM decisions d JOIN hands h USING (hand_id)
WHERE d.edition = $edition
  AND d.action_class = 'check-facing-bet'
ORDER BY d.hand_id, d.seq
