-- Tournament and table views over the event log: the sequence of hands at each table,
-- who sat where, chips bought, and eliminations.  Made with the store, and again when this
-- text changes (store.ensure_schema), so they always follow the tables they read.  The table checks
-- (dead-button, heads-up-button, blind-level, stack-continuity, new-player-seating) read
-- them; an analyst can query them to see an event's shape.  See docs/table-checks.md.

-- level_no('XVI') = 16: the number of a level written as a Roman numeral or a number
CREATE OR REPLACE MACRO roman_digit(c) AS
  CASE c WHEN 'I' THEN 1 WHEN 'V' THEN 5 WHEN 'X' THEN 10 WHEN 'L' THEN 50 WHEN 'C' THEN 100 WHEN 'D' THEN 500 WHEN 'M' THEN 1000 ELSE 0 END;
CREATE OR REPLACE MACRO level_no(s) AS
  CASE WHEN s IS NULL THEN NULL
       WHEN regexp_full_match(s, '[0-9]+') THEN TRY_CAST(s AS INTEGER)  -- beyond INTEGER: no level known
       WHEN regexp_full_match(upper(s), '[IVXLCDM]+') THEN
         list_sum(list_transform(range(1, length(s) + 1), lambda i:
           CASE WHEN roman_digit(upper(s)[i]) < roman_digit(upper(s)[i + 1]) THEN -roman_digit(upper(s)[i]) ELSE roman_digit(upper(s)[i]) END))
  END;

-- hand_blinds: per hand, who posted the blinds and the antes, and how much.
-- The positional big blind is the first 'posts big blind' line (a later one is a
-- player posting to come in); a short all-in post is marked.
CREATE OR REPLACE VIEW hand_blinds AS
SELECT hand_id,
       arg_min(seat, seq) FILTER (WHERE kind = 'small_blind') AS sb_seat,
       arg_min(player, seq) FILTER (WHERE kind = 'small_blind') AS sb_player,
       arg_min(amount, seq) FILTER (WHERE kind = 'small_blind') AS sb_amount,
       arg_min(all_in, seq) FILTER (WHERE kind = 'small_blind') AS sb_all_in,
       arg_min(line_no, seq) FILTER (WHERE kind = 'small_blind') AS sb_line,
       arg_min(seq, seq) FILTER (WHERE kind = 'small_blind') AS sb_seq,
       arg_min(seat, seq) FILTER (WHERE kind = 'big_blind') AS bb_seat,
       arg_min(player, seq) FILTER (WHERE kind = 'big_blind') AS bb_player,
       arg_min(amount, seq) FILTER (WHERE kind = 'big_blind') AS bb_amount,
       arg_min(all_in, seq) FILTER (WHERE kind = 'big_blind') AS bb_all_in,
       arg_min(line_no, seq) FILTER (WHERE kind = 'big_blind') AS bb_line,
       arg_min(seq, seq) FILTER (WHERE kind = 'big_blind') AS bb_seq,
       count(*) FILTER (WHERE kind = 'ante') AS n_antes,
       max(amount) FILTER (WHERE kind = 'ante' AND NOT all_in) AS ante_full,
       min(amount) FILTER (WHERE kind = 'ante' AND NOT all_in) AS ante_min_full,
       count(*) FILTER (WHERE kind = 'dead_blind') AS n_dead_blinds
FROM events
WHERE kind IN ('small_blind', 'big_blind', 'ante', 'dead_blind')
GROUP BY hand_id;

-- hand_seats: every seat of every hand; dealt = the player has chips and is not
-- recorded as out of the hand (PokerStars: 'out of hand (moved from another table into
-- small blind)').  A player marked 'is sitting out' in a tournament is still dealt in.
CREATE OR REPLACE VIEW hand_seats AS
SELECT s.hand_id, s.seat, s.player, s.starting_stack, s.sitting_out, s.line_no,
       (o.hand_id IS NULL AND s.starting_stack > 0) AS dealt
FROM seats s
LEFT JOIN (SELECT DISTINCT hand_id, seat FROM events WHERE kind = 'out_of_hand') o USING (hand_id, seat);

-- table_hands: the hands of each table of each tournament (cash tables by name) in
-- order (start time, then hand number), with the previous and next hand at the table,
-- the seconds between them, the blind posters and the seats dealt in.
CREATE OR REPLACE VIEW table_hands AS
WITH d AS (
  SELECT hand_id, count(*) FILTER (WHERE dealt) AS n_dealt, count(*) AS n_seated,
         list(seat ORDER BY seat) FILTER (WHERE dealt) AS dealt_seats
  FROM hand_seats GROUP BY hand_id
), h AS (
  SELECT h.hand_id, h.site, h.format, h.tournament_id,
         -- one event: anonymised histories reuse a tournament number for different events
         h.tournament_id || coalesce(' ' || h.buy_in, '') AS tournament_key,
         h.table_name, h.hand_number, h.started_at, h.level,
         h.small_blind, h.big_blind, h.ante, h.bb_ante, h.small_bet, h.big_bet, h.button_seat, h.max_seats,
         h.variant, h.betting, h.is_tournament, h.amount_scale, h.source_id, h.first_line, h.last_line, h.record_cut,
         b.sb_seat, b.sb_player, b.sb_amount, b.sb_all_in, b.sb_line, b.sb_seq,
         b.bb_seat, b.bb_player, b.bb_amount, b.bb_all_in, b.bb_line, b.bb_seq,
         coalesce(b.n_antes, 0) AS n_antes, b.ante_full, b.ante_min_full, coalesce(b.n_dead_blinds, 0) AS n_dead_blinds,
         coalesce(d.n_dealt, 0) AS n_dealt, coalesce(d.n_seated, 0) AS n_seated, d.dealt_seats
  FROM hands h LEFT JOIN hand_blinds b USING (hand_id) LEFT JOIN d USING (hand_id)
  WHERE h.table_name IS NOT NULL
)
SELECT h.*,
       row_number() OVER w AS table_seq,
       lag(hand_id) OVER w AS prev_hand_id,
       lead(hand_id) OVER w AS next_hand_id,
       date_diff('second', lag(started_at) OVER w, started_at) AS seconds_since_prev
FROM h
WINDOW w AS (PARTITION BY coalesce(tournament_key, ''), table_name
             ORDER BY started_at NULLS LAST, try_cast(hand_number AS HUGEINT) NULLS LAST, hand_id);

-- hand_chips: per hand and seat, the stack at the start, the end stack the history
-- implies (from the replay's hand_results: the table checks give it those of the
-- edition checked only, as expected end stacks depend on it), and chips bought during
-- the hand (re-buys, add-ons; in play from the next hand), and bought_before: those
-- written before the player's seat line (PokerStars, 2015: between the table line and
-- the seats), already in the stack the seat line gives.  end_stack_alt counts the
-- uncalled chips the rules return where the history does not write the return (old
-- 'PokerStars Game #' histories): the next hand's stack may follow either.
CREATE OR REPLACE VIEW hand_chips AS
WITH ends AS (
  SELECT hand_id, seat,
         any_value(coalesce(end_stack_recorded, end_stack_expected)) AS end_stack,
         any_value(starting_stack - contributed + returned_expected + coalesce(won_recorded, won_expected)) AS end_stack_alt
  FROM hand_results GROUP BY hand_id, seat
), bought AS (
  SELECT e.hand_id, e.player,
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 'rebuy' AND NOT e.before), 0) AS rebuys,
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 'addon' AND NOT e.before), 0) AS addons,
         coalesce(sum(e.amount) FILTER (WHERE e.before), 0) AS bought_before,
         min(e.line_no) FILTER (WHERE NOT e.before) AS line_no
  FROM (SELECT e.hand_id, e.player, e.kind, e.amount, e.line_no, coalesce(e.line_no < s.line_no, false) AS before
        FROM events e LEFT JOIN seats s ON s.hand_id = e.hand_id AND s.player = e.player
        WHERE e.kind IN ('rebuy', 'addon')) e
  GROUP BY e.hand_id, e.player
)
SELECT s.hand_id, s.seat, s.player, s.starting_stack, s.dealt,
       CASE WHEN s.dealt THEN e.end_stack ELSE s.starting_stack END AS end_stack,
       CASE WHEN s.dealt THEN coalesce(e.end_stack_alt, e.end_stack) ELSE s.starting_stack END AS end_stack_alt,
       coalesce(b.rebuys, 0) AS rebuys, coalesce(b.addons, 0) AS addons, b.line_no AS bought_line,
       coalesce(b.bought_before, 0) AS bought_before
FROM hand_seats s
LEFT JOIN ends e USING (hand_id, seat)
LEFT JOIN bought b USING (hand_id, player);

-- stack_links: each player seated in a hand and in the previous hand at the same
-- table: the stack they started with next to the stack they ended with plus chips bought.
-- continuous = the start (less chips bought before its seat line) equals one of the
-- implied end stacks (plus chips bought);
-- unbought_continuous = it does without the chips bought (a re-buy not yet in play).
CREATE OR REPLACE VIEW stack_links AS
SELECT t.hand_id, t.prev_hand_id, t.tournament_id, t.table_name, c.seat, c.player, c.starting_stack,
       p.seat AS prev_seat, p.end_stack AS prev_end_stack, p.end_stack_alt AS prev_end_stack_alt,
       p.rebuys, p.addons, p.bought_line, c.dealt, c.bought_before,
       (c.starting_stack - c.bought_before IN (p.end_stack + p.rebuys + p.addons, p.end_stack_alt + p.rebuys + p.addons)) AS continuous,
       (p.rebuys + p.addons > 0 AND c.starting_stack - c.bought_before IN (p.end_stack, p.end_stack_alt)) AS unbought_continuous
FROM table_hands t
JOIN hand_chips c ON c.hand_id = t.hand_id
JOIN hand_chips p ON p.hand_id = t.prev_hand_id AND p.player = c.player;

-- table_transitions: each hand with the previous hand at its table: where the
-- dead-button rule puts the blinds and the button, and whether hands seem to be missing
-- in between (gap: two or more players' stacks changed with no hand to explain it; every
-- missed hand moves at least the blinds), or the previous hand is not this table's
-- (table_changed: fewer than half of the players who ended it with chips are seated in
-- this hand, as where a format names the table after the tournament and so merges its
-- tables: iPoker); table_changed is a gap too.
CREATE OR REPLACE VIEW table_transitions AS
WITH st AS (
  SELECT hand_id, count(*) AS n_linked,
         count(*) FILTER (WHERE continuous IS NOT NULL AND NOT continuous) AS n_changed
  FROM stack_links GROUP BY hand_id
), kept AS (  -- per hand: the players who end it with chips
  SELECT hand_id, count(*) FILTER (WHERE end_stack > 0) AS n_kept FROM hand_chips GROUP BY hand_id
)
SELECT h.hand_id, h.prev_hand_id, h.tournament_id, h.table_name, h.variant, h.is_tournament,
       h.started_at, h.seconds_since_prev, h.level, p.level AS prev_level,
       h.n_dealt, p.n_dealt AS prev_n_dealt, h.dealt_seats, p.dealt_seats AS prev_dealt_seats,
       h.button_seat, h.sb_seat, h.sb_player, h.bb_seat, h.bb_player, h.sb_line, h.bb_line, h.sb_seq, h.bb_seq,
       p.button_seat AS prev_button_seat, p.sb_seat AS prev_sb_seat, p.sb_player AS prev_sb_player,
       p.bb_seat AS prev_bb_seat, p.bb_player AS prev_bb_player,
       -- the big blind moves to the next seat dealt in after the last big blind
       coalesce(list_min(list_filter(h.dealt_seats, lambda x: x > p.bb_seat)), list_min(h.dealt_seats)) AS expected_bb_seat,
       -- the small blind is the last big blind's seat: dead if that player is not dealt in
       CASE WHEN list_contains(h.dealt_seats, p.bb_seat) THEN p.bb_seat END AS expected_sb_seat,
       -- the button is the last small blind's seat (dead if that seat is now empty)
       p.sb_seat AS expected_button_seat,
       -- the same, where the last small blind was dead too: the seat it was dead on, that of the
       -- big blind of the hand before it (the dead button goes there)
       coalesce(p.sb_seat, CASE WHEN NOT list_contains(p.dealt_seats, pp.bb_seat) THEN pp.bb_seat END) AS dead_button_seat,
       coalesce(st.n_linked, 0) AS n_linked, coalesce(st.n_changed, 0) AS n_changed, k.n_kept AS prev_n_kept,
       -- a re-deal (or a duplicate of the same deal): same players, seats, stacks and button
       coalesce(rd.redeal, false) AS redeal,
       coalesce(2 * coalesce(st.n_linked, 0) < k.n_kept, false) AS table_changed,
       (coalesce(st.n_changed, 0) >= 2 OR table_changed) AND NOT coalesce(rd.redeal, false) AS gap,
       -- the previous hand's record is cut short (hands.record_cut): how it ended, and so
       -- whether hands are missing after it, is not known; the table checks do not judge
       -- this transition (nor report a gap)
       p.record_cut IS NOT NULL AS after_cut,
       h.first_line, h.last_line
FROM table_hands h
JOIN table_hands p ON p.hand_id = h.prev_hand_id
LEFT JOIN table_hands pp ON pp.hand_id = p.prev_hand_id
LEFT JOIN st ON st.hand_id = h.hand_id
LEFT JOIN kept k ON k.hand_id = h.prev_hand_id
LEFT JOIN (
  SELECT c.hand_id, bool_and(p.hand_id IS NOT NULL AND p.seat = c.seat AND p.starting_stack = c.starting_stack)
                    AND count(*) = max(x.n_seated) AS redeal
  FROM seats c JOIN table_hands x ON x.hand_id = c.hand_id
  JOIN table_hands y ON y.hand_id = x.prev_hand_id AND y.button_seat = x.button_seat AND y.n_seated = x.n_seated
  LEFT JOIN seats p ON p.hand_id = x.prev_hand_id AND p.player = c.player
  GROUP BY c.hand_id
) rd ON rd.hand_id = h.hand_id;

-- tournament_tables: each table of each tournament: hands, players, first and last hand.
CREATE OR REPLACE VIEW tournament_tables AS
SELECT t.tournament_id, t.table_name, count(*) AS hands,
       (SELECT count(DISTINCT s.player) FROM seats s JOIN hands x USING (hand_id)
         WHERE x.tournament_id = t.tournament_id AND x.table_name = t.table_name) AS players,
       min(t.started_at) AS first_started_at, max(t.started_at) AS last_started_at,
       arg_min(t.hand_id, t.table_seq) AS first_hand_id, arg_max(t.hand_id, t.table_seq) AS last_hand_id,
       list(DISTINCT t.level ORDER BY t.level) AS levels, max(t.max_seats) AS max_seats
FROM table_hands t
WHERE t.tournament_id IS NOT NULL
GROUP BY t.tournament_id, t.table_name;

-- tournament_players: each player of each tournament: hands, tables, first and last
-- seen, chips bought, and the finish place when recorded.
CREATE OR REPLACE VIEW tournament_players AS
SELECT h.tournament_id, s.player, count(*) AS hands, count(DISTINCT h.table_name) AS tables,
       min(h.started_at) AS first_seen, max(h.started_at) AS last_seen,
       (SELECT coalesce(sum(e.amount), 0) FROM events e JOIN hands x USING (hand_id)
         WHERE x.tournament_id = h.tournament_id AND e.player = s.player AND e.kind IN ('rebuy', 'addon')) AS chips_bought,
       (SELECT min(e.amount) FROM events e JOIN hands x USING (hand_id)
         WHERE x.tournament_id = h.tournament_id AND e.player = s.player AND e.kind = 'finish') AS finish_place
FROM seats s JOIN hands h USING (hand_id)
WHERE h.tournament_id IS NOT NULL
GROUP BY h.tournament_id, s.player;

-- tournament_eliminations: players out of the tournament in the order seen: a finish
-- line, or an end stack of 0 with no chips bought in that hand and no later hand.
CREATE OR REPLACE VIEW tournament_eliminations AS
WITH fin AS (
  SELECT h.tournament_id, e.player, e.hand_id, h.table_name, h.started_at, e.amount AS place, 'finish line' AS evidence
  FROM events e JOIN hands h USING (hand_id)
  WHERE e.kind = 'finish' AND h.tournament_id IS NOT NULL
), busted AS (
  SELECT t.tournament_id, c.player, c.hand_id, t.table_name, t.started_at, NULL::BIGINT AS place, 'end stack 0' AS evidence
  FROM hand_chips c JOIN table_hands t USING (hand_id)
  WHERE t.tournament_id IS NOT NULL AND c.dealt AND c.end_stack = 0 AND c.rebuys + c.addons = 0
    AND NOT EXISTS (SELECT 1 FROM seats s2 JOIN hands h2 USING (hand_id)
                    WHERE h2.tournament_id = t.tournament_id AND s2.player = c.player
                      AND h2.started_at > t.started_at AND s2.starting_stack > 0)
    AND NOT EXISTS (SELECT 1 FROM fin WHERE fin.tournament_id = t.tournament_id AND fin.player = c.player)
), allx AS (SELECT * FROM fin UNION ALL SELECT * FROM busted)
SELECT *, row_number() OVER (PARTITION BY tournament_id ORDER BY started_at, place DESC NULLS LAST, player) AS elimination_order
FROM allx;
