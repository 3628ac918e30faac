-- check: allin-muck
-- title: Hand mucked without tabling when a player was all-in
-- severity: warning
-- category: violation
-- group: showdown
-- scope: hand
-- judges: rules
-- rationale: Once a player is all-in and all betting is complete, every hand still in
--   must be tabled face up; no player who is all-in or has called all betting may muck
--   without tabling. A muck at such a showdown hides a live hand from the pot's award.
--   A muck whose cards the history prints (PokerStars' summary 'mucked [Jh Tc]', Bovada's
--   'Mucks [9s Ts]', Party's "doesn't show [ 6s, 9s ]") is still one: the history gives
--   them to its holder, its words say they were not tabled (Rule 13-A: face up on the table).
--   A house that lets hands be mucked there (house_policy allin_muck=true) makes it a
--   departure.  One finding a seat a hand, at his first muck: a hand run twice writes
--   a showdown, and his muck, for each run, but he mucked one hand.
WITH mucks AS (
  -- few hands have one: the rest reads only those hands' events
  -- at the showdown, or written on the game's last betting street
  SELECT e.hand_id, e.seat, arg_min(e.street, e.seq) AS street, min(e.seq) AS seq, arg_min(e.player, e.seq) AS player,
         arg_min(e.line_no, e.seq) AS line_no
  FROM events e JOIN hands h USING (hand_id)
  WHERE e.kind = 'muck' AND (e.street = 'showdown' OR e.street = last_street(h.variant))
  GROUP BY e.hand_id, e.seat
), folded AS (
  SELECT DISTINCT hand_id, seat FROM events SEMI JOIN mucks USING (hand_id) WHERE kind = 'fold'
), still_in AS (  -- per hand, the seats that did not fold and put chips in or checked
  SELECT e.hand_id, count(DISTINCT e.seat) AS seats, bool_or(e.all_in AND e.kind <> 'check') AS one_all_in
  FROM events e SEMI JOIN mucks USING (hand_id)
  WHERE e.kind IN ('ante', 'small_blind', 'big_blind', 'dead_blind', 'straddle', 'bring_in',
                   'call', 'bet', 'raise', 'complete', 'check')
    AND NOT EXISTS (SELECT 1 FROM folded f WHERE f.hand_id = e.hand_id AND f.seat = e.seat)
  GROUP BY e.hand_id
)
SELECT m.hand_id, m.street, m.seq, m.seat, m.player,
       'hand tabled face up' AS expected,
       'mucked' AS actual,
       who(m.seat, m.player) || ' mucked at a showdown where a player was all-in; all hands still in must be tabled.' AS message,
       m.line_no,
       'allin_muck=true' AS house_policy
FROM mucks m
-- a player all in, and a showdown two players still in reach: a lone player left 'mucks hand'
-- (Run It Once writes it when all others fold, the *** SHOWDOWN *** line written too) tables nothing
WHERE m.hand_id IN (SELECT hand_id FROM still_in WHERE one_all_in AND seats >= 2)
  AND NOT EXISTS (SELECT 1 FROM folded f WHERE f.hand_id = m.hand_id AND f.seat = m.seat)
ORDER BY m.hand_id, m.seq
