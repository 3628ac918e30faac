-- check: illegal-reopen
-- title: Raise when betting was not reopened
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: A player who has already acted may raise again only when facing at least a
--   full bet or raise (no-limit, pot-limit; short all-ins add up from 2013 on) or, in
--   limit, at least half of one. Otherwise he may only call or fold.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       'call ' || chips(d.to_call, h.amount_scale) || ' or fold' AS expected,
       'raise to ' || chips(d.amount_to, h.amount_scale) AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || ' had already acted and faced only ' ||
       chips(d.current_bet - (d.committed_before), h.amount_scale) || ' more, ' ||
       CASE WHEN h.betting = 'fixed-limit' THEN 'less than half of a full bet of ' || chips(d.last_full_increment, h.amount_scale)
            WHEN d.current_bet - d.committed_before >= d.last_full_increment THEN 'made up of all-ins each less than a full raise'
            ELSE 'less than a full bet or raise (' || chips(d.last_full_increment, h.amount_scale) || ')' END ||
       ', so betting was not reopened; he raised to ' ||
       chips(d.amount_to, h.amount_scale) || ' instead of calling or folding.' AS message,
       d.line_no
FROM decisions d JOIN hands h USING (hand_id)
WHERE d.edition = $edition
  AND d.kind IN ('raise', 'bet', 'complete')
  AND d.amount_to > d.current_bet
  AND NOT d.may_raise
  AND d.may_raise_reason = 'short-allin-not-reopened'
ORDER BY d.hand_id, d.seq
