-- check: chip-conservation
-- title: Chips awarded and returned differ from chips put in
-- severity: error
-- category: violation
-- group: award
-- scope: hand
-- judges: rules
-- precedence: 4
-- rationale: Every chip put into a hand comes back out as a return, an award or the
--   recorded rake, and the history's total pot must equal the chips in the pot.
--   Chips that appear or vanish are reported here. A difference that is exactly a
--   misstated uncalled bet is left to the uncalled-bet check. Chips awarded that were
--   not in the pot (or not awarded) are a violation only where the history's own lines
--   agree with each other: its action lines with its total pot and its collect lines with
--   its summary. Where they do not, the record contradicts itself and no line shows which
--   is right (a record finding): a total pot line that differs from the chips the action
--   lines put in (with the awards adding up to it or not: a post left out is as likely as
--   a payout error), a total the parser inferred because the format writes none (iPoker's
--   bet attributes, Party's cash lines) that differs from the actions, collect lines that
--   differ from the summary's own lines for the same seats, an all-in line that the
--   player's action sums contradict, or a difference within the record's rounding (less
--   than one chip in a tournament whose stacks or wagers hold fractions of a chip its collect lines
--   write whole). The message says which total it quotes: one the history states, a
--   written total less the uncalled chips it counts (Winamax writes no return), or one
--   inferred, never "stated". Money the house adds to a pot (house_added) is put in too.
--   What a record leaves out is never a violation (issue 33). A cash-out's money (what the
--   house paid a player for his share, and its fee) is apart from the pot: the share of a
--   player who cashed out and is paid nothing from the pots is the house's, beside the rake. PHH writes no returns, and
--   some converters (HandHQ's of PartyPoker) count a player's uncalled chips in his
--   `winnings`: winnings equal to every chip put in (less a rake written) add up. A PHH hand
--   that writes no `rake` gives its winnings net of the rake (the PHH spec), so in a cash
--   game winnings short of the chips put in may be the rake; winnings that are all 0 (as
--   converters write when they do not know them) say nothing of who won what: both are
--   record findings (category 'record', category_basis 'rake not recorded ...' or
--   'winnings not recorded ...'), never violations. Winnings above every chip put in, or
--   short of the pot in a tournament or with the rake written, stay violations.
WITH added AS (  -- money the house added: few hands, none at most sites
  SELECT hand_id, sum(amount) AS added FROM events WHERE kind = 'house_added' GROUP BY ALL
), kept AS (  -- the pot shares the house kept for players who cashed out and were paid nothing from the pots:
  -- what their summary lines say they won (PokerStars: 'won ($51.86) ... (pot not awarded as player
  -- cashed out)'); NULL, not judged, where a line does not say it of a player who could win
  -- (from the cash-outs, few: the hand's other rows are read only for them)
  SELECT c.hand_id,
         CASE WHEN bool_and(s.amount IS NOT NULL OR r.won_expected = 0) THEN coalesce(sum(s.amount), 0) END AS kept
  FROM (SELECT DISTINCT hand_id, seat FROM events WHERE kind = 'cash_out') c
  JOIN hand_results r ON r.hand_id = c.hand_id AND r.seat = c.seat AND r.edition = $edition AND r.won_recorded = 0
  LEFT JOIN (SELECT hand_id, seat, amount FROM events WHERE kind = 'seat_result'
             AND hand_id IN (SELECT hand_id FROM events WHERE kind = 'cash_out')) s ON s.hand_id = c.hand_id AND s.seat = c.seat
  GROUP BY ALL
), flow AS (
  SELECT r.hand_id,
         sum(r.contributed) + coalesce(any_value(a.added), 0) AS put_in,
         sum(coalesce(r.returned_recorded, r.returned_expected)) AS returned,
         sum(r.returned_expected) AS returned_exp,
         sum(r.won_recorded) AS awarded,
         count(r.won_recorded) AS n_recorded,
         -- every seat's uncalled chips within his recorded winnings (PHH winnings may count them)
         bool_and(coalesce(r.won_recorded, 0) >= r.returned_expected) AS returns_within,
         count(*) AS n
  FROM hand_results r LEFT JOIN added a USING (hand_id) WHERE r.edition = $edition GROUP BY ALL
), claims AS (
  SELECT e.hand_id, max(e.amount) FILTER (WHERE e.kind = 'total_pot') AS total_pot,
         -- the house's take, and the shares it kept for the players who cashed out (their
         -- cash-out's own money, paid and fee, is apart from the pot: never counted here)
         coalesce(max(e.to_amount) FILTER (WHERE e.kind = 'total_pot'), 0)
           + any_value(CASE WHEN k.hand_id IS NULL THEN 0 ELSE k.kept END) AS rake,
         any_value(CASE WHEN k.hand_id IS NULL THEN 0 ELSE k.kept END) AS kept,
         max(line_no) FILTER (WHERE kind = 'total_pot') AS line_no,
         count(*) FILTER (WHERE e.kind = 'total_pot') > 0 AS rake_recorded,  -- PHH: a `rake` field
         count(*) FILTER (WHERE e.kind = 'winnings') > 0 AS phh_winnings,
         count(*) FILTER (WHERE e.kind IN ('collect', 'finishing_stack', 'winnings')) AS n_outcomes
  FROM events e LEFT JOIN kept k USING (hand_id) GROUP BY ALL
), off AS MATERIALIZED (  -- the hands whose chips do not add up: few
  SELECT f.*, c.total_pot, c.rake, c.kept, c.line_no, c.rake_recorded, f.put_in - f.returned AS in_pot,
         c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp) AS total_off,
         f.n_recorded = f.n AND c.n_outcomes > 0
           AND f.awarded NOT IN (f.put_in - f.returned - c.rake, f.put_in - f.returned_exp - c.rake)
           AND NOT (c.phh_winnings AND f.returns_within AND f.awarded = f.put_in - c.rake) AS award_off
  FROM flow f JOIN claims c USING (hand_id)
  WHERE (c.total_pot IS NOT NULL AND c.total_pot NOT IN (f.put_in - f.returned, f.put_in - f.returned_exp))
     OR (f.n_recorded = f.n AND c.n_outcomes > 0
         AND f.awarded NOT IN (f.put_in - f.returned - c.rake, f.put_in - f.returned_exp - c.rake)
         -- PHH winnings that count the uncalled chips as won: every chip comes back out
         AND NOT (c.phh_winnings AND f.returns_within AND f.awarded = f.put_in - c.rake))
), off_events AS MATERIALIZED (  -- their events and results, read once for the parts below
  SELECT e.* FROM events e WHERE e.hand_id IN (SELECT hand_id FROM off)
), off_results AS MATERIALIZED (
  SELECT r.* FROM hand_results r WHERE r.edition = $edition AND r.hand_id IN (SELECT hand_id FROM off)
), lines AS (  -- of those hands: the total pot line as the record has it, and the returns inferred
  SELECT e.hand_id,
         any_value(e.text) FILTER (WHERE e.kind = 'total_pot') AS total_text,
         any_value(e.inferred_from) FILTER (WHERE e.kind = 'total_pot') AS total_from,
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 'uncalled_return' AND e.inferred_from IS NOT NULL), 0) AS returned_inferred,
         -- a line that holds a collect, a summary result or a return: a total placed on it is inferred
         list(DISTINCT e.line_no) FILTER (WHERE e.kind IN ('collect', 'seat_result', 'uncalled_return')) AS outcome_lines
  FROM off_events e GROUP BY ALL
), summary AS (  -- of those hands: the summary's amount for a seat against its collect (and return)
  SELECT s.hand_id, sum(s.amount) AS summary_won,
         bool_or(s.amount NOT IN (r.won_recorded, r.won_recorded + coalesce(r.returned_recorded, 0))) AS summary_off
  FROM off_events s JOIN off_results r ON r.hand_id = s.hand_id AND r.seat = s.seat
  WHERE s.kind = 'seat_result' AND s.amount IS NOT NULL AND r.won_recorded IS NOT NULL
    -- a seat that cashed out, paid nothing from the pots: his line's amount is the share the house kept
    AND NOT (r.won_recorded = 0 AND EXISTS (SELECT 1 FROM off_events c
                                            WHERE c.hand_id = s.hand_id AND c.seat = s.seat AND c.kind = 'cash_out'))
  GROUP BY ALL
), allin AS (  -- of those hands: seats written all in whose actions put in less than their stack
  SELECT r.hand_id, min(r.seat) AS seat, arg_min(r.player, r.seat) AS player,
         arg_min(r.contributed, r.seat) AS contributed, arg_min(r.starting_stack, r.seat) AS stack,
         sum(r.starting_stack - r.contributed) AS short
  FROM off_results r
  WHERE r.contributed < r.starting_stack
    AND (r.hand_id, r.seat) IN (SELECT (hand_id, seat) FROM off_events WHERE all_in)
  GROUP BY ALL
), judged AS (
  SELECT o.*, h.amount_scale, h.last_line, l.total_text, l.total_from, l.returned_inferred, s.summary_won,
         coalesce(s.summary_off, false) AS summary_off,
         a.seat AS allin_seat, a.player AS allin_player, a.contributed AS allin_contributed, a.stack AS allin_stack,
         CASE WHEN o.total_pot IS NULL THEN NULL
              WHEN l.total_from IS NULL THEN 'stated'
              -- a written total pot line less the uncalled chips it counts (the format writes no return)
              WHEN l.total_text IS NOT NULL AND list_contains(l.total_from, o.line_no)
                   AND NOT list_contains(coalesce(l.outcome_lines, []), o.line_no) AND l.returned_inferred > 0 THEN 'less return'
              ELSE 'inferred' END AS total_kind,
         -- the difference between what the awards (or the total) say and what the actions put in
         CASE WHEN o.total_off THEN o.total_pot - o.in_pot ELSE o.awarded - (o.in_pot - o.rake) END AS diff,
         -- less than one chip in a tournament whose stacks or wagers hold fractions of a chip
         h.is_tournament AND h.amount_scale > 1
           AND abs(CASE WHEN o.total_off THEN o.total_pot - o.in_pot ELSE o.awarded - (o.in_pot - o.rake) END) < h.amount_scale
           AND (EXISTS (SELECT 1 FROM off_results x WHERE x.hand_id = o.hand_id
                        AND x.starting_stack % h.amount_scale <> 0)
                -- or its wagers do, where the format writes collect lines (which round: not PHH's winnings)
                OR EXISTS (SELECT 1 FROM off_events y WHERE y.hand_id = o.hand_id AND y.kind <> 'collect'
                           AND (y.amount % h.amount_scale <> 0 OR y.to_amount % h.amount_scale <> 0))
                   AND EXISTS (SELECT 1 FROM off_events z WHERE z.hand_id = o.hand_id AND z.kind = 'collect')) AS rounding,
         -- the all-in line's shortfall accounts for the difference (each seat that matched it at most once)
         a.short IS NOT NULL
           AND abs(CASE WHEN o.total_off THEN o.total_pot - o.in_pot ELSE o.awarded - (o.in_pot - o.rake) END) <= a.short * o.n AS allin_off,
         -- PHH: winnings all 0 (not recorded); or, no rake written, short of the chips put in in a
         -- cash game (net of a rake not recorded, with or without the uncalled chips counted as won)
         CASE WHEN NOT outcomes_net_of_unwritten_rake(h.format) OR o.total_off OR NOT o.award_off THEN NULL
              WHEN o.awarded = 0 THEN 'winnings'
              WHEN NOT o.rake_recorded AND NOT h.is_tournament
                   AND (o.awarded < o.in_pot OR o.awarded < o.put_in AND o.returns_within) THEN 'rake' END AS unrecorded
  FROM off o JOIN hands h USING (hand_id)
  LEFT JOIN lines l USING (hand_id) LEFT JOIN summary s USING (hand_id) LEFT JOIN allin a USING (hand_id)
)
SELECT j.hand_id, 'summary' AS street, NULL::INTEGER AS seq, NULL::SMALLINT AS seat, NULL AS player,
       CASE WHEN j.total_off THEN 'total pot ' || chips(j.in_pot, j.amount_scale)
            ELSE 'awarded ' || chips(j.in_pot - j.rake, j.amount_scale) END AS expected,
       CASE WHEN j.total_off THEN 'total pot ' || chips(j.total_pot, j.amount_scale) ||
                 CASE j.total_kind
                   WHEN 'less return' THEN ' (the line''s ' || chips(j.total_pot + j.returned_inferred, j.amount_scale) ||
                        ' less ' || chips(j.returned_inferred, j.amount_scale) || ' uncalled)'
                   WHEN 'inferred' THEN ' (inferred)' ELSE '' END
            ELSE 'awarded ' || chips(j.awarded, j.amount_scale) END AS actual,
       CASE WHEN j.total_off THEN
              CASE j.total_kind
                WHEN 'stated' THEN 'The history states a total pot of ' || chips(j.total_pot, j.amount_scale) || ' (line ' || j.line_no || ')'
                WHEN 'less return' THEN 'The history''s total pot line (line ' || j.line_no || ': "' || j.total_text ||
                     '") counts an uncalled ' || chips(j.returned_inferred, j.amount_scale) ||
                     ' the format writes no return for; less it, the total pot is ' || chips(j.total_pot, j.amount_scale)
                ELSE 'The history writes no total pot; the one inferred from line' ||
                     CASE WHEN len(j.total_from) > 1 THEN 's ' ELSE ' ' END ||
                     array_to_string(j.total_from, ', ') || ' is ' || chips(j.total_pot, j.amount_scale) END ||
              ', but its action lines leave ' || chips(j.in_pot, j.amount_scale) || ' in the pot' ||
              CASE WHEN j.returned > 0 THEN ' (' || chips(j.put_in, j.amount_scale) || ' put in, ' ||
                        chips(j.returned, j.amount_scale) || ' returned)' ELSE '' END ||
              CASE WHEN j.awarded = j.total_pot - j.rake AND j.total_kind = 'inferred' AND j.rake > 0
                   THEN '; the awards (' || chips(j.awarded, j.amount_scale) || ') and the rake inferred from that total (' ||
                        chips(j.rake, j.amount_scale) || ') make it up'
                   WHEN j.awarded = j.total_pot - j.rake
                   THEN '; the awards (' || chips(j.awarded, j.amount_scale) || CASE WHEN j.rake > 0 THEN ', with the rake ' || chips(j.rake, j.amount_scale) ELSE '' END ||
                        ') agree with that total'
                   WHEN j.award_off THEN '; ' || chips(j.awarded, j.amount_scale) || ' was awarded'
                   ELSE '; the awards agree with the actions' END ||
              ': the record contradicts itself.'
            ELSE chips(j.in_pot, j.amount_scale) || ' stayed in the pot' ||
                 CASE WHEN j.returned_inferred > 0
                      THEN ' (after an uncalled ' || chips(j.returned_inferred, j.amount_scale) || ' went back, which the format writes no line for)'
                      ELSE '' END ||
                 CASE WHEN j.rake > j.kept THEN ' (rake ' || chips(j.rake - j.kept, j.amount_scale) ||
                           CASE WHEN j.kept > 0 THEN ', and ' ELSE ')' END
                      WHEN j.kept > 0 THEN ' (' ELSE '' END ||
                 CASE WHEN j.kept > 0 THEN chips(j.kept, j.amount_scale) || ' the share the house kept for the players '
                      || 'who cashed out: ' || chips(j.in_pot - j.rake, j.amount_scale) || ' left to award)' ELSE '' END ||
                 ', but ' || chips(j.awarded, j.amount_scale) || ' was awarded' ||
                 CASE WHEN j.unrecorded = 'winnings'
                      THEN ': every entry of the record''s winnings is 0, so it does not say who won what (winnings not recorded).'
                      WHEN j.unrecorded = 'rake' AND j.awarded < j.in_pot
                      THEN ', ' || chips(j.in_pot - j.awarded, j.amount_scale) || ' less; the record writes no rake, and PHH winnings '
                           || 'are net of it, so the difference may be the rake (rake not recorded).'
                      WHEN j.unrecorded = 'rake'
                      THEN ', more than the pot and ' || chips(j.put_in - j.awarded, j.amount_scale) || ' less than the '
                           || chips(j.put_in, j.amount_scale) || ' put in: the winnings may count the '
                           || chips(j.put_in - j.in_pot, j.amount_scale) || ' uncalled as won (as some converters write them), less '
                           || 'a rake the record does not write (PHH winnings are net of it); the record does not say (rake not recorded).'
                      WHEN j.summary_off
                      THEN '; the summary''s lines for the same seats say ' || chips(j.summary_won, j.amount_scale) ||
                           ': the collect lines contradict the summary.'
                      WHEN j.rounding
                      THEN ', less than one chip apart: the stacks or wagers hold fractions of a chip that the collect lines write whole (the record''s rounding).'
                      ELSE '.' END END ||
       CASE WHEN j.allin_off
            THEN ' ' || upper(substr(who(j.allin_seat, j.allin_player), 1, 1)) || substr(who(j.allin_seat, j.allin_player), 2) ||
                 ' is written all in, but the action lines put in ' || chips(j.allin_contributed, j.amount_scale) ||
                 ' of a stack of ' || chips(j.allin_stack, j.amount_scale) || '.'
            ELSE '' END AS message,
       coalesce(j.line_no, j.last_line) AS line_no,
       CASE WHEN j.award_off AND NOT j.total_off AND NOT j.summary_off AND NOT j.rounding AND NOT j.allin_off
                 AND j.unrecorded IS NULL
            THEN 'violation' ELSE 'record' END AS category,
       CASE WHEN j.unrecorded = 'winnings' THEN 'winnings not recorded (every entry 0)'
            WHEN j.unrecorded = 'rake' THEN 'rake not recorded (PHH winnings are net of it)'
            WHEN j.award_off AND NOT j.total_off AND NOT j.summary_off AND NOT j.rounding AND NOT j.allin_off THEN NULL
            WHEN j.total_off AND j.total_kind = 'inferred' THEN 'a total pot inferred from lines the action lines contradict'
            WHEN j.total_off THEN 'a total pot line the action lines contradict'
            WHEN j.summary_off THEN 'collect lines the summary contradicts'
            WHEN j.rounding THEN 'within the record''s rounding'
            ELSE 'an all-in line the action sums contradict' END AS category_basis
FROM judged j
ORDER BY j.hand_id
