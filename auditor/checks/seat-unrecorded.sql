-- check: seat-unrecorded
-- title: A player acts with no seat line: his seat and stack not recorded
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: Some histories let a player act who has no seat line (PartyPoker's player who
--   joins the table and posts at once, WPN's 2016 format writing 'Player  has big blind'
--   with no name). His events are stored as recorded, with no seat; his seat and stack
--   are not invented. The replay applies every action and settles the pots with his
--   chips, but records no fact that needs what is missing: the turn order of a round he
--   could act in (to_act NULL: no out-of-turn judgement there), his stack and all-in
--   status beyond what his lines say, a short wager's judgement that needs his stack,
--   the odd chip of a pot he shares, the showing order of a showdown he is in. One
--   finding a hand says so, at his first line.
WITH seatless AS (
  SELECT e.hand_id, count(*) AS n, min(e.seq) AS seq, arg_min(e.street, e.seq) AS street,
         arg_min(e.player, e.seq) AS player, arg_min(e.kind, e.seq) AS kind, arg_min(e.line_no, e.seq) AS line_no
  FROM events e
  WHERE e.seat IS NULL AND e.player IS NOT NULL
    AND e.kind IN ('ante', 'small_blind', 'big_blind', 'dead_blind', 'straddle', 'bring_in',
                   'fold', 'check', 'call', 'bet', 'raise', 'complete')
  GROUP BY e.hand_id
)
SELECT u.hand_id, u.street, u.seq, NULL::SMALLINT AS seat, u.player,
       'a seat line for the player' AS expected,
       'no seat line' AS actual,
       'A player with no seat line' || CASE WHEN u.player = '' THEN ' (no name written)' ELSE ' (' || u.player || ')' END
       || ' acts in this hand, first with a ' || replace(u.kind, '_', ' ') || ' on the ' || u.street
       || ' (' || CAST(u.n AS VARCHAR) || CASE WHEN u.n = 1 THEN ' action' ELSE ' actions' END
       || ' in all): his seat and stack are not recorded, so the turn order of the rounds he could act in, '
       || 'his stack and the odd chip of a pot he shares were not judged; his chips are in the pots.' AS message,
       u.line_no
FROM seatless u
ORDER BY u.hand_id
