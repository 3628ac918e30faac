-- check: record-incomplete
-- title: The record stops before the hand ends: what it lacks is not judged
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: A history whose record of a hand stops early (a partial export that holds
--   only the seats and the blinds, a file cut off mid-hand) is stored as recorded, never
--   completed (hands.record_cut says what it lacks). Every recorded action is judged
--   (blinds, turn order, bet and raise sizes), but nothing that depends on how the hand
--   went on: its uncalled returns, pots, side pots, winners, odd chips, awards, chip
--   conservation and the stacks it leaves for the next hand. One finding a cut hand
--   says where its record stops and what it lacks.
WITH last_recorded AS (  -- the last event the record holds (few hands are cut)
  SELECT e.hand_id, max(e.line_no) AS line_no, arg_max(e.street, e.seq) AS street
  FROM events e SEMI JOIN (SELECT hand_id FROM hands WHERE record_cut IS NOT NULL) c USING (hand_id)
  GROUP BY ALL
)
SELECT h.hand_id, coalesce(l.street, 'preflop') AS street, NULL::INTEGER AS seq, NULL::SMALLINT AS seat, NULL AS player,
       'the hand recorded to its end' AS expected,
       'the record stops at line ' || CAST(h.last_line AS VARCHAR) AS actual,
       'The record of this hand stops at line ' || CAST(h.last_line AS VARCHAR) ||
       coalesce(' (its last event is on line ' || CAST(l.line_no AS VARCHAR) || ', on the ' || l.street || ')', ' (it records no event)') ||
       ' and lacks ' || h.record_cut || '. What it records was judged; how the hand went on '
       || '(returns, pots, winners, awards, end stacks) was not.' AS message,
       h.last_line AS line_no
FROM hands h LEFT JOIN last_recorded l USING (hand_id)
WHERE h.record_cut IS NOT NULL
ORDER BY h.hand_id
