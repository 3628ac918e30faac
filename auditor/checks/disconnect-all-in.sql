-- check: disconnect-all-in
-- title: A disconnected player played all in with chips behind: the house's policy, not judged
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: Some sites protect a player who disconnects in a hand: at his turn they play
--   him all in for what he has put in, his chips behind kept (WPN's format of 2016 writes
--   'is disconnected and ALL IN.'). The TDA has no rule for an online disconnection: this
--   is the house's own policy (declared in its house profile), and he made no decision
--   for the rules to judge. The replay plays him as the site did: all in from that line,
--   owing no call, nobody waiting on him, eligible for the pots he put chips in (side
--   pots form from the contributions, as for any all-in), keeping his stack; the rest of
--   the hand is judged on that. One finding each such event names him and what he kept.
SELECT e.hand_id, e.street, e.seq, e.seat, e.player,
       'no TDA rule: disconnect protection is the house''s policy' AS expected,
       'played all in with ' || coalesce(chips(r.starting_stack - r.contributed, h.amount_scale), 'chips') || ' behind' AS actual,
       on_street(e.street) || ', the site played ' || who(e.seat, e.player) || ' all in when he disconnected, with '
       -- no end of hand (a record cut short) or no seat line: what he kept is not recorded
       || coalesce(chips(r.contributed, h.amount_scale) || ' in the pot and ' || chips(r.starting_stack - r.contributed, h.amount_scale),
                   'chips (the record does not give how many)')
       || ' behind: its disconnect protection, a house policy (the TDA has no rule for an online disconnection). '
       || 'He took no further action, which was not judged; the replay plays him as the site did: in for the pots '
       || 'he had put chips in, his chips behind kept.' AS message,
       e.line_no
FROM events e
JOIN hands h USING (hand_id)
LEFT JOIN hand_results r ON r.hand_id = e.hand_id AND r.edition = $edition
  AND r.seat IS NOT DISTINCT FROM e.seat AND r.player IS NOT DISTINCT FROM e.player
WHERE e.kind = 'disconnect_all_in'
ORDER BY e.hand_id, e.seq
