-- check: illegal-underraise
-- title: Bet or raise below the minimum left standing
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: A bet or raise must be at least the largest prior full bet or raise of the
--   round. A player with chips behind who bets or raises less, and is not corrected,
--   changes the price for everyone after. All-in wagers for less are legal, and so is a
--   raise that already puts every opponent who can still act all-in.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       'at least ' || chips(d.min_raise_to, h.amount_scale) AS expected,
       chips(d.amount_to, h.amount_scale) AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || CASE WHEN d.action_class = 'underbet' THEN ' bet ' ELSE ' raised to ' END ||
       chips(d.amount_to, h.amount_scale) || ' with ' || chips(d.stack_after, h.amount_scale) ||
       ' behind; the minimum was ' || chips(d.min_raise_to, h.amount_scale) || ', and the short wager stood.' AS message,
       d.line_no
FROM decisions d JOIN hands h USING (hand_id)
WHERE d.edition = $edition
  AND d.action_class IN ('underraise', 'underbet')
ORDER BY d.hand_id, d.seq
