-- Display helpers used by the checks and reports.  Amounts stay integers in the
-- store; these only format them for people.

-- chips(amount, amount_scale): '1250' for tournament chips, '12.50' for cents
CREATE OR REPLACE MACRO chips(a, scale) AS
  CASE
    WHEN a IS NULL THEN NULL
    WHEN scale IS NULL OR scale = 1 THEN CAST(a AS VARCHAR)
    ELSE (CASE WHEN a < 0 THEN '-' ELSE '' END) || CAST(abs(a) // scale AS VARCHAR) || '.' ||
         lpad(CAST(abs(a) % scale AS VARCHAR), CAST(length(CAST(scale AS VARCHAR)) - 1 AS INTEGER), '0')
  END;

-- "On the flop", "Before the flop", "On third street": a message's street, in words
CREATE OR REPLACE MACRO on_street(street) AS
  CASE street
    WHEN 'preflop' THEN 'Before the flop'
    WHEN 'predraw' THEN 'Before the first draw'
    WHEN 'first_draw' THEN 'After the first draw'
    WHEN 'second_draw' THEN 'After the second draw'
    WHEN 'third_draw' THEN 'After the third draw'
    WHEN 'showdown' THEN 'At the showdown'
    WHEN 'summary' THEN 'In the summary'
    ELSE CASE WHEN street IN ('second', 'third', 'fourth', 'fifth', 'sixth', 'seventh') THEN 'On ' || street || ' street'
              ELSE 'On the ' || street END
  END;

-- who(seat, player): 'seat 3 (Bob)'
-- who(NULL, 'Ann'): 'the player with no seat line (Ann)' (seat-unrecorded)
CREATE OR REPLACE MACRO who(seat, player) AS
  CASE WHEN seat IS NULL
       THEN 'the player with no seat line' ||
            CASE WHEN player IS NULL THEN '' WHEN player = '' THEN ' (no name written)' ELSE ' (' || player || ')' END
       ELSE 'seat ' || CAST(seat AS VARCHAR) || CASE WHEN player IS NULL THEN '' ELSE ' (' || player || ')' END END;

-- seats_list([1, 3]): '1, 3'
-- (a NULL item: the player with no seat line)
CREATE OR REPLACE MACRO seats_list(l) AS
  array_to_string(list_transform(l, lambda x: coalesce(CAST(x AS VARCHAR), 'the player with no seat line')), ', ');

-- next_seat(3, [1, 3, 5]): 5, the next seat of the list clockwise after seat 3
CREATE OR REPLACE MACRO next_seat(x, l) AS coalesce(list_min(list_filter(l, lambda s: s > x)), list_min(l));

-- winner_seats(hi, lo): the distinct seats of a pot's winners, sorted; list_distinct drops
-- a NULL item (the player with no seat line), which is put back last
CREATE OR REPLACE MACRO winner_seats(hi, lo) AS
  list_concat(list_sort(list_distinct(list_concat(coalesce(hi, []), coalesce(lo, [])))),
              CASE WHEN len(list_filter(list_concat(coalesce(hi, []), coalesce(lo, [])), lambda x: x IS NULL)) > 0
                   THEN [NULL::SMALLINT] ELSE []::SMALLINT[] END);
