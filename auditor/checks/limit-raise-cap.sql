-- check: limit-raise-cap
-- title: More raises than the cap in a limit round
-- severity: error
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: In limit play the number of raises in a round is capped by the house
--   (default here: a bet and three raises), even heads-up until the event is down to two
--   players. Short all-in raises count toward the cap. house_policy names the house
--   caps the raise keeps to: raise_cap=N (a cap of N bets or more allows it), and
--   raise_cap_heads_up=false when the round was heads-up.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       CAST(d.raise_cap AS VARCHAR) || ' bets and raises at most' AS expected,
       'bet or raise number ' || CAST(d.bets_and_raises + 1 AS VARCHAR) AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) || ' made bet or raise number ' ||
       CAST(d.bets_and_raises + 1 AS VARCHAR) || ' of a limit round capped at ' || CAST(d.raise_cap AS VARCHAR) || '.' AS message,
       d.line_no,
       'raise_cap=' || CAST(d.bets_and_raises + 1 AS VARCHAR) ||
       CASE WHEN (SELECT count(DISTINCT e.seat) FROM events e WHERE e.hand_id = d.hand_id AND e.seat IS NOT NULL AND e.street <> 'summary')
                 - (SELECT count(*) FROM events e WHERE e.hand_id = d.hand_id AND e.kind = 'fold' AND e.seq < d.seq) = 2
            THEN ', raise_cap_heads_up=false' ELSE '' END AS house_policy
FROM decisions d
WHERE d.edition = $edition
  AND d.raise_cap IS NOT NULL
  AND d.kind IN ('bet', 'raise', 'complete')
  AND d.amount_to > d.current_bet
  AND d.bets_and_raises >= d.raise_cap
ORDER BY d.hand_id, d.seq
