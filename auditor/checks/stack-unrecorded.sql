-- check: stack-unrecorded
-- title: A player's stack not recorded: what depends on it not judged
-- severity: info
-- category: record
-- group: record
-- scope: hand
-- judges: rules
-- rationale: A history that does not write a player's starting stack (PHH's inf, the
--   spec's unknown stack, as the HandHQ conversions of iPoker write every stack) is
--   stored and replayed with that stack unknown, never a made-up number: the turn order,
--   the calls, the pots, side-pot eligibility, the awards and the odd chips are judged,
--   but nothing that needs the stack: whether a wager was all-in, and so whether a short
--   one reopened the betting, the no-limit maximum, and the stacks the hand leaves for
--   the next. One finding a hand names the seats. PartyPoker too leaves a stack unwritten:
--   the seat line of a player who joins in the hand ('Seat 2: Player8 ( $0 USD )', then
--   'Player8 has joined the table.' and his posts) shows the chair before his buy-in.
WITH unknown AS (
  SELECT s.hand_id, list(s.seat ORDER BY s.seat) AS seats, min(s.line_no) AS line_no, count(*) AS n,
         min(s.player) AS player
  FROM seats s WHERE s.starting_stack IS NULL
  GROUP BY s.hand_id
)
-- the seat and player named where one seat's stack is unknown
SELECT u.hand_id, 'preflop' AS street, NULL::INTEGER AS seq,
       CASE WHEN u.n = 1 THEN u.seats[1] END::SMALLINT AS seat, CASE WHEN u.n = 1 THEN u.player END AS player,
       'every seat''s starting stack recorded' AS expected,
       CASE WHEN u.n = 1 THEN 'seat ' ELSE 'seats ' END || seats_list(u.seats) || ' not recorded' AS actual,
       'The history does not record the starting stack of ' || CASE WHEN u.n = 1 THEN 'seat ' ELSE 'seats ' END
       || seats_list(u.seats) || ', so what depends on it was not judged (whether a wager was all-in and so whether '
       || 'a short one reopened the betting, the no-limit maximum, the stacks left for the next hand); the turn order, '
       || 'calls, pots, awards and odd chips were.' AS message,
       coalesce(u.line_no, h.first_line) AS line_no
FROM unknown u JOIN hands h USING (hand_id)
ORDER BY u.hand_id
