-- Views named for people, over the store.  They are created as TEMP views each
-- time `tda-audit query` (or a report) opens the store, so they work on a
-- read-only connection and never change the store file.  They read the replay
-- facts and findings of one TDA edition, chosen with
--   SET VARIABLE edition = 'tda-2019';
-- (`tda-audit query --rules ED` does this; the default is the edition the store
-- was audited under).  Amounts are integers in the hand's stored unit: divide by
-- `scale` for the recorded amount (1 for tournament chips, 100 for cents).
-- Documented in docs/reports.md.

-- actions: every recorded event of every hand, in order, with the table and
-- tournament, and for voluntary actions what the rules allowed at that moment
-- (from the replay's decisions): stack, pot, amount to call, minimum raise-to,
-- whether betting was open, and the replay's classification of the action;
-- inferred_from names the lines an event the format leaves out is inferred from.
CREATE OR REPLACE TEMP VIEW actions AS
SELECT e.hand_id, h.tournament_id, h.table_name, h.level, h.started_at,
       e.seq, e.line_no, e.street, e.kind, e.seat, e.player,
       e.amount, e.to_amount, e.all_in, e.cards, e.pot_label,
       d.stack_before, d.pot_before, d.to_call, d.current_bet,
       d.min_raise_to, d.max_raise_to,
       d.may_raise AS betting_open, d.may_raise_reason AS betting_open_why,
       d.amount_to, d.stack_after, d.action_class,
       d.expected_seat,
       (d.expected_seat IS NOT NULL AND d.expected_seat <> e.seat) AS out_of_turn,
       h.amount_scale AS scale,
       e.text, e.inferred_from
FROM events e
JOIN hands h USING (hand_id)
LEFT JOIN decisions d ON d.hand_id = e.hand_id AND d.seq = e.seq AND d.edition = getvariable('edition');

-- findings_by_check: how many findings each check made, in how many hands and
-- tournaments, with its severity and the rule it cites, and how many of them are
-- violations, departures (house policy) and record findings.
CREATE OR REPLACE TEMP VIEW findings_by_check AS
SELECT check_id, any_value(severity) AS severity, any_value(rule) AS rule, any_value(rule_title) AS rule_title,
       count(*) AS findings, count(DISTINCT hand_id) AS hands,
       count(DISTINCT tournament_id) AS tournaments,
       count(*) FILTER (WHERE category = 'violation') AS violations,
       count(*) FILTER (WHERE category = 'departure') AS departures,
       count(*) FILTER (WHERE category = 'record') AS records
FROM findings
WHERE edition = getvariable('edition')
GROUP BY check_id;

-- findings_by_category: violations (the rules in force broken), departures (the
-- hand followed the house's declared policy) and record findings (the history does
-- not hold what the audit needs), each with its findings, hands, tournaments and
-- checks (docs/semantics.md, "Finding categories").
CREATE OR REPLACE TEMP VIEW findings_by_category AS
SELECT category, count(*) AS findings, count(DISTINCT hand_id) AS hands,
       count(DISTINCT tournament_id) AS tournaments, list(DISTINCT check_id ORDER BY check_id) AS checks
FROM findings
WHERE edition = getvariable('edition')
GROUP BY category;

-- hand_summary: one row per stored hand: where and when it was played, how many
-- players and actions, the pots and how many of them could be verified, and the
-- findings against it.
CREATE OR REPLACE TEMP VIEW hand_summary AS
WITH p AS (
  SELECT hand_id, count(*) AS pots, CAST(sum(amount) AS BIGINT) AS pot_total,
         count(*) FILTER (WHERE contested) AS contested_pots,
         count(*) FILTER (WHERE contested AND verified) AS contested_pots_verified,
         bool_and(verified) AS all_pots_verified
  FROM pots WHERE edition = getvariable('edition') GROUP BY hand_id
), s AS (
  SELECT hand_id, count(*) AS players FROM seats GROUP BY hand_id
), a AS (
  SELECT hand_id, count(*) AS actions FROM decisions WHERE edition = getvariable('edition') GROUP BY hand_id
), f AS (
  SELECT hand_id, count(*) AS findings, count(*) FILTER (WHERE category = 'violation') AS violations,
         list(DISTINCT check_id ORDER BY check_id) AS checks
  FROM findings WHERE edition = getvariable('edition') GROUP BY hand_id
), n AS (
  SELECT hand_id, count(*) AS replay_notes FROM replay_notes WHERE edition = getvariable('edition') GROUP BY hand_id
)
SELECT h.hand_id, h.site, h.tournament_id, h.tournament_name, h.table_name, h.level, h.started_at,
       h.variant, h.betting, h.small_blind, h.big_blind, h.ante, h.amount_scale AS scale,
       coalesce(s.players, 0) AS players, coalesce(a.actions, 0) AS actions,
       coalesce(p.pots, 0) AS pots, coalesce(p.pot_total, 0) AS pot_total,
       coalesce(p.contested_pots, 0) AS contested_pots,
       coalesce(p.contested_pots_verified, 0) AS contested_pots_verified,
       coalesce(p.all_pots_verified, false) AND coalesce(n.replay_notes, 0) = 0 AS fully_verified,
       coalesce(n.replay_notes, 0) AS replay_notes,
       coalesce(f.findings, 0) AS findings, coalesce(f.violations, 0) AS violations, coalesce(f.checks, []) AS checks,
       src.path AS source_path, h.first_line
FROM hands h
JOIN sources src USING (source_id)
LEFT JOIN p USING (hand_id) LEFT JOIN s USING (hand_id) LEFT JOIN a USING (hand_id)
LEFT JOIN f USING (hand_id) LEFT JOIN n USING (hand_id);

-- player_summary: per player name, the hands played and the findings that name
-- the player (as the acting or awarded seat).
CREATE OR REPLACE TEMP VIEW player_summary AS
WITH f AS (
  SELECT player, count(*) AS findings, list(DISTINCT check_id ORDER BY check_id) AS checks
  FROM findings WHERE edition = getvariable('edition') AND player IS NOT NULL GROUP BY player
)
SELECT s.player, count(DISTINCT s.hand_id) AS hands, count(DISTINCT h.tournament_id) AS tournaments,
       coalesce(any_value(f.findings), 0) AS findings, coalesce(any_value(f.checks), []) AS checks
FROM seats s JOIN hands h USING (hand_id) LEFT JOIN f USING (player)
GROUP BY s.player;

-- source_summary: per ingested file, its sha256, the hands stored from it, the
-- hands rejected from it at ingest, and the findings in its hands.
CREATE OR REPLACE TEMP VIEW source_summary AS
WITH h AS (SELECT source_id, count(*) AS hands FROM hands GROUP BY source_id),
r AS (SELECT sha256, count(*) AS rejected FROM ingest_errors WHERE hand_id IS NOT NULL GROUP BY sha256),
f AS (SELECT source_path AS path, count(*) AS findings FROM findings WHERE edition = getvariable('edition') GROUP BY source_path)
SELECT s.source_id, s.path, s.format, s.sha256, s.size, s.ingested_at,
       coalesce(h.hands, 0) AS hands, coalesce(r.rejected, 0) AS rejected, coalesce(f.findings, 0) AS findings
FROM sources s LEFT JOIN h USING (source_id) LEFT JOIN r USING (sha256) LEFT JOIN f USING (path);
