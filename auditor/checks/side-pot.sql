-- check: side-pot
-- title: Pot awarded to a player not eligible for it
-- severity: error
-- category: violation
-- group: award
-- scope: hand
-- judges: rules
-- precedence: 2
-- rationale: Each side pot is contested only by the players who put chips into every
--   level of it; a player all-in for less can win only the pots he is in. Chips of a pot
--   paid to a seat that was not eligible for it are reported here, in each run of a board
--   run twice.
SELECT s.hand_id, 'showdown' AS street, NULL::INTEGER AS seq, s.seat, st.player,
       'nothing from ' || p.pot_label || ' (eligible: seats ' || seats_list(p.eligible) || ')' AS expected,
       chips(s.recorded, h.amount_scale) || ' from ' || p.pot_label AS actual,
       who(s.seat, st.player) || ' was awarded ' || chips(s.recorded, h.amount_scale) || ' from the ' ||
       CASE WHEN p.pot_index = 0 THEN 'main pot' ELSE 'side pot ' || CAST(p.pot_index AS VARCHAR) END ||
       ', which only seats ' || seats_list(p.eligible) || ' could win.' AS message,
       coalesce(s.line_no, h.last_line) AS line_no
FROM pot_shares s
JOIN pots p ON p.hand_id = s.hand_id AND p.edition = s.edition AND p.pot_index = s.pot_index AND p.run = s.run
JOIN hands h ON h.hand_id = s.hand_id
LEFT JOIN seats st ON st.hand_id = s.hand_id AND st.seat = s.seat
WHERE s.edition = $edition
  AND NOT s.eligible
  AND s.recorded > 0
ORDER BY s.hand_id, s.pot_index, s.run, s.seat
