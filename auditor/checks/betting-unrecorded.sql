-- check: betting-unrecorded
-- title: Betting structure not recorded: bet and raise sizes not judged
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: Whether a bet or raise was large enough, whether it reopened the betting,
--   the pot-limit maximum and the limit's cap all depend on the game's betting structure
--   (no-limit, pot-limit or fixed-limit). A history that does not state it (betting
--   'unrecorded', such as WPN's format of 2016 and before), or says fixed-limit and states
--   no bet sizes (Bovada's seven card stud), is stored and replayed in full:
--   turn order, calls, pots, side-pot eligibility, awards, odd chips and returns are
--   judged, but the size of its bets and raises is not. One finding a hand with a bet or
--   raise says so, at its first such action.
WITH unjudged AS (
  -- the first such action as one struct: arg_min skips a NULL seat (a player with no seat line)
  SELECT d.hand_id, count(*) AS n,
         arg_min({'seq': d.seq, 'street': d.street, 'seat': d.seat, 'player': d.player, 'kind': d.kind,
                  'amount_to': d.amount_to, 'line_no': d.line_no}, d.seq) AS f
  FROM decisions d JOIN hands h USING (hand_id)
  WHERE d.edition = $edition AND h.betting = 'unrecorded' AND d.kind IN ('bet', 'raise', 'complete')
  GROUP BY d.hand_id
), first_action AS (
  SELECT hand_id, n, f.seq AS seq, f.street AS street, f.seat AS seat, f.player AS player, f.kind AS kind,
         f.amount_to AS amount_to, f.line_no AS line_no
  FROM unjudged
)
SELECT u.hand_id, u.street, u.seq, u.seat, u.player,
       'the betting structure (no-limit, pot-limit, or fixed-limit with its bet sizes) recorded' AS expected,
       'not recorded' AS actual,
       'The history does not state the betting structure (no-limit, pot-limit, or fixed-limit with its bet sizes), so the size of '
       || CASE WHEN u.n = 1 THEN 'its one bet or raise' ELSE 'its ' || CAST(u.n AS VARCHAR) || ' bets and raises' END
       || ' was not judged (minimum raise, reopening, pot-limit maximum, limit cap), starting with '
       || who(u.seat, u.player) || '''s ' || u.kind || ' to ' || chips(u.amount_to, h.amount_scale) || ' on the ' || u.street
       || '; everything else in the hand was judged.' AS message,
       u.line_no
FROM first_action u JOIN hands h USING (hand_id)
ORDER BY u.hand_id
