-- check: bring-in
-- title: Stud bring-in by a player other than the one the up cards name
-- severity: warning
-- category: violation
-- group: betting
-- scope: hand
-- judges: rules and recommended procedures (Rule 30 the bring-in card; RP-10-E the bring-in left of a player all in for the ante, a departure at most)
-- rationale: In seven card stud, stud hi/lo and five card stud the player dealt the lowest up card (ties by
--   suit: clubs, diamonds, hearts, spades) brings in; in razz the highest (ace low, ties to
--   the higher suit). If that player is all in from the ante, betting starts to his or her
--   left (2019 and 2024 RP-10-E), and the bring-in falls to the next seat with chips. Each
--   seat's up card on third street (five card stud: second street) is the last card of its first deal there (PokerStars
--   shows only that card of the other players; a format that shows all three, such as
--   Bovada's, implies it by stud's dealing order, and its deal events say so through
--   inferred_from). A hand with a seat whose up card is not recorded is not judged. The
--   replay takes the recorded bring-in as the start of the round, so without this check a
--   bring-in by the wrong player would move the turn order with it unnoticed.
WITH stud AS (
  SELECT hand_id, variant = 'razz' AS razz, first_street(variant) AS first_street
  FROM hands WHERE is_stud(variant)
),
seated AS (  -- every seat with an event on the first street, its up card and whether the ante left it all in
  SELECT e.hand_id, e.seat, arg_min(e.player, e.seq) AS player,
         arg_min(list_last(string_split(trim(e.cards), ' ')), e.seq) FILTER (WHERE e.kind = 'deal_hole') AS card,
         bool_or(e.kind = 'ante' AND e.all_in) AS ante_all_in
  FROM events e JOIN stud USING (hand_id)
  WHERE e.street = stud.first_street AND e.seat IS NOT NULL
  GROUP BY e.hand_id, e.seat
),
keyed AS (  -- smaller key brings in
  SELECT c.*, CASE WHEN s.razz THEN -(strpos('A23456789TJQK', c.card[1]) * 4 + strpos('cdhs', c.card[2]))
                   ELSE strpos('23456789TJQKA', c.card[1]) * 4 + strpos('cdhs', c.card[2]) END AS k,
         s.razz
  FROM seated c JOIN stud s USING (hand_id)
),
judged AS (  -- hands where every seat's up card is a known card
  SELECT hand_id, arg_min(seat, k) AS low_seat, arg_min(card, k) AS low_card, arg_min(player, k) AS low_player,
         bool_or(razz) AS razz,
         list(seat ORDER BY seat) FILTER (WHERE NOT ante_all_in) AS with_chips,
         list(seat ORDER BY seat) FILTER (WHERE ante_all_in) AS all_in_seats
  FROM keyed
  GROUP BY hand_id
  HAVING bool_and(card IS NOT NULL AND length(card) = 2 AND strpos('23456789TJQKA', card[1]) > 0
                  AND strpos('cdhs', card[2]) > 0)
),
expected AS (
  SELECT j.*, CASE WHEN list_contains(coalesce(j.all_in_seats, []), j.low_seat)
                   THEN next_seat(j.low_seat, j.with_chips) ELSE j.low_seat END AS bring_seat
  FROM judged j
),
bring AS (  -- the first bring-in recorded
  SELECT e.hand_id, arg_min(e.seq, e.seq) AS seq, arg_min(e.seat, e.seq) AS seat,
         arg_min(e.player, e.seq) AS player, arg_min(e.line_no, e.seq) AS line_no
  FROM events e SEMI JOIN stud USING (hand_id)
  WHERE e.kind = 'bring_in'
  GROUP BY e.hand_id
)
SELECT b.hand_id, st.first_street AS street, b.seq, b.seat, b.player,
       'seat ' || CAST(x.bring_seat AS VARCHAR) || ' brings in' AS expected,
       'seat ' || CAST(b.seat AS VARCHAR) || ' brought in' || coalesce(' (' || c.card || ' up)', '') AS actual,
       'On ' || st.first_street || ' street, ' || who(b.seat, b.player) || ' brought in, but ' || who(x.low_seat, x.low_player) ||
       ' was dealt the ' || CASE WHEN x.razz THEN 'highest' ELSE 'lowest' END || ' up card (' || x.low_card || ')' ||
       CASE WHEN x.bring_seat <> x.low_seat
            THEN ' and is all in from the ante, so the bring-in falls to seat ' || CAST(x.bring_seat AS VARCHAR) || ' on his left'
            ELSE ' and brings in' END || '.' AS message,
       b.line_no,
       -- the bring-in left of a player all in for the ante rests on RP-10-E alone (2019, 2024)
       CASE WHEN x.bring_seat <> x.low_seat THEN 'RP-10-E' END AS rp
FROM bring b
JOIN expected x USING (hand_id)
JOIN stud st ON st.hand_id = b.hand_id
LEFT JOIN seated c ON c.hand_id = b.hand_id AND c.seat = b.seat
WHERE b.seat IS DISTINCT FROM x.bring_seat
ORDER BY b.hand_id
