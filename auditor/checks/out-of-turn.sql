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
--   turn is judged.
SELECT d.hand_id, d.street, d.seq, d.seat, d.player,
       CASE WHEN d.expected_seat IS NULL THEN 'no action (betting was over)' ELSE 'seat ' || CAST(d.expected_seat AS VARCHAR) END AS expected,
       'seat ' || CAST(d.seat AS VARCHAR) || CASE WHEN d.actor_status <> 'active' THEN ' (' || replace(d.actor_status, '_', '-') || ')' ELSE '' END AS actual,
       on_street(d.street) || ', ' || who(d.seat, d.player) ||
       CASE WHEN d.actor_status = 'folded' THEN ' acted after having folded'
            WHEN d.actor_status = 'all_in' THEN ' acted while already all-in'
            WHEN d.expected_seat IS NULL THEN ' acted when no one was due to act'
            ELSE ' acted when it was seat ' || CAST(d.expected_seat AS VARCHAR) || '''s turn' END || '.' AS message,
       d.line_no,
       CASE WHEN d.kind = 'check' AND (d.actor_status = 'all_in' OR d.expected_seat IS NULL) THEN 'record' END AS category
FROM decisions d
WHERE d.edition = $edition
  -- to_act NULL: the turn order is not known (a player with no seat line could act: seat-unrecorded;
  -- a stud street's first actor when the history does not show every upcard: docs/semantics.md, "Turn order")
  AND (d.actor_status <> 'active' OR (d.to_act IS NOT NULL AND d.expected_seat IS DISTINCT FROM d.seat))
  AND NOT (d.kind = 'fold' AND d.actor_status = 'all_in')
ORDER BY d.hand_id, d.seq
