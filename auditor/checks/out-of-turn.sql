-- check: out-of-turn
-- title: Action out of turn
-- severity: warning
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules
-- rationale: Action proceeds clockwise; an action by a seat whose turn it was not, or by a
--   seat that had already folded or was all-in, skips or misleads the players entitled to
--   act and is subject to the out-of-turn rule. A fold recorded for a player already
--   all-in from a forced bet is the site forfeiting a sitting-out player's hand, not an
--   action, and is not reported. A check recorded for a player already all-in moves no
--   chips and is no one's turn: the history contradicts itself (Run It Once writes such
--   checks), a record finding rather than a violation; so is a check recorded when
--   betting was over (no one was due to act): it moves no chips and changes nothing.
--   Where the turn is not known (to_act NULL: a player with no seat line could act, or
--   a stud street's first actor hangs on upcards the history does not show), no one's
--   turn is judged. An online site's software takes an action only in its seat's turn, so
--   where its history writes a run of folds in another order than their turn (a fold ahead
--   of seats due before it, each of which folds later in the same run, no other action
--   between: PartyPoker writes the folds of players sitting out so), the line order is
--   the record's, not the play's: a record finding. Where the format's lines are the
--   play's order (actions_in_play_order: PHH, live play too) it stays a violation.
WITH candidate AS (
  SELECT d.* FROM decisions d
  WHERE d.edition = $edition
    -- to_act NULL: the turn order is not known (a player with no seat line could act: seat-unrecorded;
    -- a stud street's first actor when the history does not show every upcard: docs/semantics.md, "Turn order")
    AND (d.actor_status <> 'active' OR (d.to_act IS NOT NULL AND d.expected_seat IS DISTINCT FROM d.seat))
    AND NOT (d.kind = 'fold' AND d.actor_status = 'all_in')
),
-- the street's runs of folds: a run ends at any other action (only where a fold is out of turn)
runs AS (
  SELECT d.hand_id, d.street, d.seq, d.seat, d.kind,
         sum(CASE WHEN d.kind <> 'fold' THEN 1 ELSE 0 END) OVER (PARTITION BY d.hand_id, d.street ORDER BY d.seq) AS run
  FROM decisions d
  WHERE d.edition = $edition
    AND d.hand_id IN (SELECT hand_id FROM candidate WHERE kind = 'fold' AND actor_status = 'active')
),
reordered AS (
  SELECT c.hand_id, c.seq
  FROM candidate c JOIN runs r USING (hand_id, seq) JOIN hands h USING (hand_id)
  WHERE c.kind = 'fold' AND c.actor_status = 'active' AND c.expected_seat IS NOT NULL AND NOT actions_in_play_order(h.format)
    AND list_position(c.to_act, c.seat) IS NOT NULL
    -- every seat due before his folds later in the same run
    AND list_position(c.to_act, c.seat) - 1 = (
      SELECT count(DISTINCT g.seat) FROM runs g
      WHERE g.hand_id = c.hand_id AND g.street = c.street AND g.run = r.run AND g.kind = 'fold' AND g.seq > c.seq
        AND list_contains(c.to_act[1:list_position(c.to_act, c.seat) - 1], g.seat))
)
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       CASE WHEN d.expected_seat IS NULL THEN 'no action (betting was over)' ELSE 'seat ' || CAST(d.expected_seat AS VARCHAR) END AS expected,
       'seat ' || CAST(d.seat AS VARCHAR) || CASE WHEN d.actor_status <> 'active' THEN ' (' || replace(d.actor_status, '_', '-') || ')' ELSE '' END AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) ||
       CASE WHEN d.actor_status = 'folded' THEN ' acted after having folded'
            WHEN d.actor_status = 'all_in' THEN ' acted while already all-in'
            WHEN d.expected_seat IS NULL THEN ' acted when no one was due to act'
            ELSE ' acted when it was seat ' || CAST(d.expected_seat AS VARCHAR) || '''s turn' END || '.' AS message,
       d.line_no,
       CASE WHEN d.kind = 'check' AND (d.actor_status = 'all_in' OR d.expected_seat IS NULL) THEN 'record'
            WHEN o.seq IS NOT NULL THEN 'record' END AS category,
       CASE WHEN o.seq IS NOT NULL THEN 'the seats due before him fold next, in the same run of folds: the site''s software '
            || 'folds a seat only in its turn, so the record writes these folds in another order than they were made' END
         AS category_basis
FROM candidate d LEFT JOIN reordered o USING (hand_id, seq)
ORDER BY d.hand_id, d.seq
