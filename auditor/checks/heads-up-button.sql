-- check: heads-up-button
-- title: Heads-up, the small blind is not the button, or a player got the big blind twice
-- severity: error
-- category: violation
-- group: table
-- scope: table
-- judges: rules
-- rationale: Heads-up the small blind is the button and acts first before the flop. When
--   play becomes heads-up the button is adjusted so that no player takes the big blind
--   twice in a row. Checked on every tournament hand with two players dealt in that has
--   blinds, and against the previous hand at the table (not across hands missing from
--   the history).
WITH hu AS (
  SELECT h.hand_id, h.button_seat, h.sb_seat, h.sb_player, h.bb_seat, h.bb_player, h.sb_seq, h.bb_seq,
         h.sb_line, h.bb_line, h.first_line, h.dealt_seats,
         t.prev_hand_id, t.prev_bb_seat, t.prev_bb_player, t.prev_n_dealt, t.gap, t.redeal, t.after_cut
  FROM table_hands h LEFT JOIN table_transitions t USING (hand_id)
  WHERE h.is_tournament AND h.n_dealt = 2 AND h.bb_seat IS NOT NULL
    -- two seat lines, but a third player acts with no seat line (seat-unrecorded): not heads-up
    AND h.hand_id NOT IN (SELECT hand_id FROM events WHERE seat IS NULL AND player IS NOT NULL
                            AND kind IN ('ante', 'small_blind', 'big_blind', 'dead_blind', 'straddle', 'bring_in',
                                         'fold', 'check', 'call', 'bet', 'raise', 'complete'))
)
SELECT hand_id, 'preflop' AS street, sb_seq AS seq, sb_seat AS seat, sb_player AS player,
       'small blind seat ' || button_seat || ' (the button)' AS expected,
       'small blind seat ' || sb_seat AS actual,
       'Heads-up, ' || who(sb_seat, sb_player) || ' posted the small blind, but the button is seat ' || button_seat ||
       ': the small blind must be the button.' AS message,
       coalesce(sb_line, first_line) AS line_no
FROM hu
WHERE sb_seat IS NOT NULL AND button_seat IS NOT NULL AND sb_seat <> button_seat
UNION ALL
SELECT hand_id, 'preflop', bb_seq, bb_seat, bb_player,
       'big blind seat ' || list_filter(dealt_seats, lambda x: x <> bb_seat)[1],
       'big blind seat ' || bb_seat,
       who(bb_seat, bb_player) || ' posted the big blind again, having posted it in the previous hand' ||
       CASE WHEN prev_n_dealt > 2 THEN ' with ' || prev_n_dealt || ' players: on the move to heads-up the button must be set so that nobody takes the big blind twice in a row.'
            ELSE ': heads-up the blinds alternate.' END,
       coalesce(bb_line, first_line)
FROM hu
WHERE prev_hand_id IS NOT NULL AND NOT gap AND NOT redeal AND NOT coalesce(after_cut, false) AND prev_bb_player = bb_player
ORDER BY 1
