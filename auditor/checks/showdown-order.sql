-- check: showdown-order
-- title: A player other than the one an enforced order of show names tabled first (non-all-in showdown)
-- severity: info
-- category: record
-- group: showdown
-- scope: hand
-- judges: rules
-- rationale: In a non-all-in showdown the last aggressor on the final betting round
--   tables first; with no bet on that round, the first player left of the button does.
--   Since 2013 (Rule 16, then 17-A) that order applies only "if cards are not
--   spontaneously tabled or discarded", when the TD enforces an order of show; a
--   player who tables first of his own accord breaks no rule.  A history records the
--   order of the show lines, never whether a hand was tabled spontaneously or when
--   the order was enforced (2011's Rule 12 has no such clause, but no format says its
--   lines are in the order the cards were tabled): each finding is a record finding,
--   that the audit cannot judge the order, never a violation.
--   Only histories that record a showing order are judged (board and draw games; not
--   shows a parser inferred (inferred_from), as iPoker's, whose XML records no showing
--   order; nor hands whose cards are shown only in the summary, which lists seats in
--   seat order; nor the formats whose showdown lines are the site's listing of the
--   hands it tabled (showdown_listed_by_site, declared by their parsers: Winamax tables
--   every hand itself and lists the winner last, so its history holds no order a player
--   chose, docs/sites.md);
--   nor hands with a player who has no seat line still in at the end, or one whose stack
--   the record does not know: PHH's inf, which leaves whether the showdown was all-in unknown).
--   An all-in showdown is not judged: every hand is tabled (Rule 16), whether the site
--   wrote 'and is all-in' or a player still in merely put in his whole stack
--   (hand_results: contributed = starting stack; Run It Once and converted histories
--   write no 'and is all-in').
WITH shown AS (
  SELECT hand_id, seat, seq, line_no, player FROM events
  WHERE kind IN ('show', 'muck') AND street = 'showdown' AND inferred_from IS NULL
), judged AS (
  -- the hands that can be judged, found first so that the rest reads only theirs:
  -- two or more players shown or mucked, no all-in, not stud (its own order)
  SELECT s.hand_id FROM shown s JOIN hands h USING (hand_id)
  WHERE NOT is_stud(h.variant)
    AND NOT showdown_listed_by_site(h.format)
    AND s.hand_id NOT IN (SELECT hand_id FROM events WHERE all_in)
    -- all in by stack: a seat still in put in every chip he had (no 'and is all-in' written)
    AND s.hand_id NOT IN (SELECT r.hand_id FROM hand_results r
                          WHERE r.edition = $edition AND r.starting_stack > 0 AND r.contributed >= r.starting_stack
                            AND NOT EXISTS (SELECT 1 FROM events f WHERE f.hand_id = r.hand_id AND f.seat = r.seat
                                              AND f.kind = 'fold'))
    AND s.hand_id NOT IN (SELECT hand_id FROM events WHERE kind = 'show' AND street = 'summary'
                          EXCEPT SELECT hand_id FROM events WHERE kind = 'show' AND street = 'showdown')
    -- a player still in whose stack the record does not know (PHH's inf): whether the
    -- showdown was all-in is not known
    AND s.hand_id NOT IN (SELECT r.hand_id FROM hand_results r
                          WHERE r.edition = $edition AND r.seat IS NOT NULL AND r.starting_stack IS NULL
                            AND NOT EXISTS (SELECT 1 FROM events f WHERE f.hand_id = r.hand_id AND f.seat = r.seat
                                              AND f.kind = 'fold'))
    -- a player with no seat line still in at the end: the button's left and the aggressor's
    -- seat are not known (seat-unrecorded)
    AND s.hand_id NOT IN (SELECT hand_id FROM events WHERE seat IS NULL AND player IS NOT NULL
                            AND kind IN ('small_blind', 'big_blind', 'dead_blind', 'straddle', 'call', 'check', 'bet', 'raise')
                          EXCEPT SELECT hand_id FROM events WHERE seat IS NULL AND player IS NOT NULL AND kind = 'fold')
  GROUP BY s.hand_id HAVING count(*) >= 2
), last_street AS (
  SELECT hand_id, arg_max(street, seq) AS street FROM decisions SEMI JOIN judged USING (hand_id)
  WHERE edition = $edition GROUP BY ALL
), aggressor AS (
  SELECT d.hand_id, arg_max(d.seat, d.seq) AS seat
  FROM decisions d JOIN last_street l ON l.hand_id = d.hand_id AND l.street = d.street
  WHERE d.edition = $edition AND d.kind IN ('bet', 'raise', 'complete') AND d.amount_to > d.current_bet
  GROUP BY ALL
), hand_events AS (
  SELECT e.hand_id, e.seat, e.kind FROM events e SEMI JOIN judged USING (hand_id) WHERE e.seat IS NOT NULL
), folded AS (
  SELECT DISTINCT hand_id, seat FROM hand_events WHERE kind = 'fold'
), first_shown AS (
  SELECT hand_id, arg_min(seat, seq) AS seat, min(seq) AS seq, arg_min(line_no, seq) AS line_no, arg_min(player, seq) AS player
  FROM shown SEMI JOIN judged USING (hand_id) GROUP BY ALL
), in_at_showdown AS (
  SELECT DISTINCT e.hand_id, e.seat FROM hand_events e
  WHERE e.kind IN ('small_blind', 'big_blind', 'call', 'check', 'bet', 'raise')
    AND NOT EXISTS (SELECT 1 FROM folded f WHERE f.hand_id = e.hand_id AND f.seat = e.seat)
), left_of_button AS (
  SELECT i.hand_id, arg_min(i.seat, (i.seat - h.button_seat - 1 + 100 * h.max_seats) % h.max_seats) AS seat
  FROM in_at_showdown i JOIN hands h USING (hand_id)
  WHERE h.button_seat IS NOT NULL AND h.max_seats IS NOT NULL
  GROUP BY ALL
), required AS (
  SELECT l.hand_id, coalesce(a.seat, b.seat) AS seat, a.seat IS NOT NULL AS by_aggression
  FROM last_street l LEFT JOIN aggressor a USING (hand_id) LEFT JOIN left_of_button b USING (hand_id)
)
SELECT f.hand_id, 'showdown' AS street, f.seq, f.seat, f.player,
       'seat ' || CAST(r.seat AS VARCHAR) || ' shows first' AS expected,
       'seat ' || CAST(f.seat AS VARCHAR) || ' showed first' AS actual,
       who(f.seat, f.player) || ' showed first; in an order of show the TD enforces, ' ||
       CASE WHEN r.by_aggression THEN 'the last aggressor, seat ' ELSE 'with no bet on the last round, the first player left of the button, seat ' END ||
       CAST(r.seat AS VARCHAR) || ', tables first. The history records the order of its show lines, not whether the cards ' ||
       'were tabled spontaneously or in an enforced order, so whether the order of show was breached cannot be judged.' AS message,
       f.line_no
FROM first_shown f
JOIN required r USING (hand_id)
WHERE r.seat IS NOT NULL AND r.seat <> f.seat
ORDER BY f.hand_id
