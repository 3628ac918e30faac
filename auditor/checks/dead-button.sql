-- check: dead-button
-- title: Big blind skipped, or the button and blinds not moved by the dead-button rule
-- severity: error
-- category: violation
-- group: table
-- scope: table
-- judges: rules
-- rationale: Under a dead button every player pays the big blind once per round: the big
--   blind moves to the next player dealt in, the small blind is the last big blind's seat
--   (dead if that player is gone) and the button is the last small blind's seat (dead if
--   that seat is empty). A big blind that jumps a player lets that player miss it; a
--   button moved forward past an eliminated player's seat gives a player a free round.
--   With both blinds where the rule puts them and a dead button (the last small blind's
--   seat empty or not dealt in), a button written on another seat changes nobody's
--   position when the last seat dealt in before it is the same as before the dead
--   button's (the site left the button on an empty seat, or on the player the dead
--   button leaves to act last): the button label alone differs, and that is not
--   reported. Compared hand to hand at each tournament table with three or more
--   players dealt in; not across hands missing from the history (stack-continuity
--   reports those gaps). A hand that followed a moving button instead (both blinds
--   and the button moved one player on: the next player dealt in after the last button
--   has the button, the next two the blinds) says so in house_policy
--   (button=both-blinds-moved): a house profile that declares it makes it a departure.
--   Button errors (2024 Rule 34-A): corrected if found before substantial action, else
--   the error stands and the button is not backed up on the next hand. Every edition
--   judges a hand from where the button and blinds really were in the hand before, so an
--   error is reported once. A hand that moves the button back to where the previous
--   hand's should have been undoes that error: no edition before 2024 has a rule against
--   it, so it is not reported; under 2024 it is, unless the erroneous hand ended before
--   substantial action (Rule 36).
WITH t AS (
  SELECT t.*,
         -- dealt-in players the big blind passed over (clockwise after the last big blind, before the new one)
         list_filter(t.dealt_seats, lambda x: CASE WHEN t.bb_seat > t.prev_bb_seat THEN x > t.prev_bb_seat AND x < t.bb_seat
                                                   ELSE x > t.prev_bb_seat OR x < t.bb_seat END) AS passed
  FROM table_transitions t
  WHERE t.is_tournament AND NOT t.gap AND NOT t.redeal AND NOT t.after_cut AND t.n_dealt >= 3
    AND t.bb_seat IS NOT NULL AND t.prev_bb_seat IS NOT NULL
), hand_sa AS (  -- Rule 36: two actions in turn, one of them putting chips in, or three
  SELECT hand_id, count(*) >= 3 OR (count(*) = 2 AND bool_or(committed_after > committed_before)) AS sa
  FROM decisions WHERE edition = $edition AND (expected_seat IS NULL OR seat = expected_seat)
  GROUP BY hand_id
), v0 AS (
  SELECT t.*,
         CASE WHEN t.bb_seat <> t.expected_bb_seat AND len(t.passed) > 0 AND t.bb_seat <> t.prev_bb_seat THEN 'skipped'
              WHEN t.bb_seat <> t.expected_bb_seat THEN 'not-advanced'
              -- (a hand that records no button, iPoker's with the button on an empty seat it does not
              -- list, says nothing of where it was: not judged)
              WHEN t.expected_button_seat IS NOT NULL AND t.button_seat IS NOT NULL AND t.button_seat <> t.expected_button_seat
                   -- not a label alone: the dead button's seat is empty or out, and the last seat dealt
                   -- in at or before the written button is the last at or before the dead button
                   AND NOT (t.button_seat IS NOT NULL AND NOT list_contains(t.dealt_seats, t.expected_button_seat)
                            AND coalesce(list_max(list_filter(t.dealt_seats, lambda x: x <= t.button_seat)), list_max(t.dealt_seats))
                              = coalesce(list_max(list_filter(t.dealt_seats, lambda x: x <= t.expected_button_seat)), list_max(t.dealt_seats)))
                   THEN 'button'
              WHEN t.sb_seat IS DISTINCT FROM t.expected_sb_seat THEN 'small-blind'
         END AS what
  FROM t
), v AS (
  SELECT v0.*, coalesce(s.sa, false) AS sa, p.hand_id AS undone_hand_id, coalesce(ps.sa, false) AS undone_sa,
         -- the button moved back to where the previous hand's should have been
         p.what IS NOT NULL AND v0.what IS NOT NULL AND v0.bb_seat = p.expected_bb_seat
           AND (p.expected_button_seat IS NULL OR v0.button_seat IS NOT DISTINCT FROM p.expected_button_seat) AS backed_up
  FROM v0
  LEFT JOIN hand_sa s ON s.hand_id = v0.hand_id
  LEFT JOIN v0 p ON p.hand_id = v0.prev_hand_id
  LEFT JOIN hand_sa ps ON ps.hand_id = v0.prev_hand_id
)
SELECT v.hand_id, 'preflop' AS street,
       CASE WHEN v.what IN ('skipped', 'not-advanced') THEN v.bb_seq WHEN v.what = 'small-blind' THEN v.sb_seq END AS seq,
       CASE WHEN v.what = 'skipped' THEN v.expected_bb_seat WHEN v.what = 'not-advanced' THEN v.bb_seat
            WHEN v.what = 'button' THEN v.button_seat ELSE coalesce(v.sb_seat, v.expected_sb_seat) END AS seat,
       CASE WHEN v.what = 'skipped' THEN (SELECT s.player FROM seats s WHERE s.hand_id = v.hand_id AND s.seat = v.expected_bb_seat)
            WHEN v.what = 'not-advanced' THEN v.bb_player
            WHEN v.what = 'button' THEN (SELECT s.player FROM seats s WHERE s.hand_id = v.hand_id AND s.seat = v.button_seat)
            ELSE coalesce(v.sb_player, (SELECT s.player FROM seats s WHERE s.hand_id = v.hand_id AND s.seat = v.expected_sb_seat)) END AS player,
       CASE WHEN v.what IN ('skipped', 'not-advanced') THEN 'big blind seat ' || v.expected_bb_seat
            WHEN v.what = 'button' THEN 'button seat ' || v.expected_button_seat
            ELSE coalesce('small blind seat ' || v.expected_sb_seat, 'dead small blind') END AS expected,
       CASE WHEN v.what IN ('skipped', 'not-advanced') THEN 'big blind seat ' || v.bb_seat
            WHEN v.what = 'button' THEN 'button seat ' || v.button_seat
            ELSE coalesce('small blind seat ' || v.sb_seat, 'no small blind') END AS actual,
       CASE v.what
         WHEN 'skipped' THEN 'The big blind moved from seat ' || v.prev_bb_seat || ' to seat ' || v.bb_seat || ', past ' ||
              CASE WHEN len(v.passed) = 1 THEN 'seat ' ELSE 'seats ' END || seats_list(v.passed) ||
              ': ' || who(v.expected_bb_seat, (SELECT s.player FROM seats s WHERE s.hand_id = v.hand_id AND s.seat = v.expected_bb_seat)) ||
              ' was dealt in, but the big blind passed over that seat' ||
              CASE WHEN v.sb_seat = v.expected_bb_seat THEN ', which posted only the small blind' ELSE '' END ||
              CASE WHEN v.prev_sb_seat IS NOT NULL AND NOT list_contains(v.dealt_seats, v.prev_bb_seat) THEN
                   ' (last hand''s big blind, seat ' || v.prev_bb_seat || ', is out: the small blind should have been dead)'
                   WHEN v.prev_sb_seat IS NOT NULL AND NOT list_contains(v.dealt_seats, v.prev_sb_seat) THEN
                   ' (last hand''s small blind, seat ' || v.prev_sb_seat || ', is out: the button should have stayed dead on that seat, not moved on to seat ' || v.button_seat || ')'
                   WHEN NOT list_contains(v.prev_dealt_seats, v.expected_bb_seat) THEN ' (a new player there may take the big blind at once)'
                   ELSE '' END || '.'
         WHEN 'not-advanced' THEN who(v.bb_seat, v.bb_player) || ' posted the big blind, but last hand''s big blind was seat ' ||
              v.prev_bb_seat || ': the big blind should have moved on to seat ' || v.expected_bb_seat || '.'
         WHEN 'button' THEN 'The button is on seat ' || v.button_seat || ', but last hand''s small blind was seat ' ||
              v.expected_button_seat || ': under a dead button the button goes there' ||
              CASE WHEN NOT list_contains(v.dealt_seats, v.expected_button_seat) THEN ' (a dead button, the seat is empty or out)' ELSE '' END || '.'
         ELSE CASE WHEN v.expected_sb_seat IS NULL THEN who(v.sb_seat, v.sb_player) || ' posted the small blind, but last hand''s big blind (seat ' ||
                        v.prev_bb_seat || ') is out: the small blind should have been dead.'
                   WHEN v.sb_seat IS NULL THEN 'Nobody posted the small blind; last hand''s big blind, seat ' || v.expected_sb_seat || ', owes it.'
                   ELSE who(v.sb_seat, v.sb_player) || ' posted the small blind, but it belongs to seat ' || v.expected_sb_seat || ', last hand''s big blind.' END
       END ||
       CASE WHEN NOT $button_error_stands THEN ''
            WHEN v.backed_up THEN ' The button was moved back to undo the error of hand ' || v.undone_hand_id ||
                 ', which stood once substantial action had occurred there: the button is not backed up on the next hand (Rule 34-A).'
            WHEN v.sa THEN ' Substantial action occurred in this hand, so the error stands (Rule 34-A).'
            ELSE ' No substantial action occurred in this hand: the floor could still have corrected it (Rule 34-A).' END AS message,
       coalesce(CASE WHEN v.what = 'small-blind' THEN v.sb_line ELSE v.bb_line END, v.first_line) AS line_no,
       CASE WHEN v.button_seat = next_seat(v.prev_button_seat, v.dealt_seats)
             AND v.sb_seat = next_seat(v.button_seat, v.dealt_seats)
             AND v.bb_seat = next_seat(v.sb_seat, v.dealt_seats) THEN 'button=both-blinds-moved' END AS house_policy
FROM v
WHERE v.what IS NOT NULL AND NOT (v.backed_up AND (NOT $button_error_stands OR NOT v.undone_sa))
ORDER BY v.hand_id
