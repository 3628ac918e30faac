"""PokerStars histories written by the client in another language (parsers/stars_languages.py,
issue 33), through the real pipeline: each hand here is written for this test in the shape
of real exports (invented names and numbers), beside the same hand written in English.

What is asserted: a localized hand is stored, with the events of its English twin (kind,
seat, amount, to amount, street, all in, cards, line); its events keep the lines as written
and its content hash is that of its text as written; a violation planted in it is found by
the check that finds it in English; an export's separator and title lines are no hand's;
a re-buy written before the seat lines is read, in the stacks it is written in.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from auditor.pipeline import audit
from parsers.base import ParsedHand, content_hash
from parsers.pokerstars import PokerStarsParser

# --- the hands: each language's, then the same hand in English ---------------------------

RU = """\
Раздача PokerStars №300000000001:  Холдем Безлимитный ($0.01/$0.02 USD) - 14.03.2026 20:15:09 EET [14.03.2026 13:15:09 ВВ]
Стол 'Ланселот II' 6-max Баттон на месте №3
Место 1: Ирина_К ($2 фишек)
Место 2: Bob Lee ($1.50 фишек)
Место 3: kettle77 ($3.10 фишек)
Место 4: Zorro: the 2nd ($0.80 фишек)
Zorro: the 2nd: ставит малый блайнд $0.01
Ирина_К: ставит большой блайнд $0.02
*** ЗАКРЫТЫЕ КАРТЫ ***
Карты kettle77 [Ah Kd]
Bob Lee: делает колл $0.02
kettle77: делает рейз $0.06 $0.08
Zorro: the 2nd: делает фолд
Ирина_К: делает фолд
Bob Lee: делает колл $0.06
*** ФЛОП *** [7c 8d 2s]
Bob Lee: делает бет $0.10
kettle77: делает рейз $0.20 $0.30
Bob Lee: делает колл $0.20
*** ТЕРН *** [7c 8d 2s] [Qh]
Bob Lee: делает бет $1.12 и олл-ин
kettle77: делает колл $1.12
*** РИВЕР *** [7c 8d 2s Qh] [3c]
*** ВСКРЫТИЕ КАРТ ***
Bob Lee: открывает [7h 7d] (тройка [семерки])
kettle77: открывает [Ah Kd] (старшая карта [туз])
Bob Lee получил $2.90 ( банк)
*** ИТОГ ***
Общий банк $3.03 | Доля $0.13
Борд [7c 8d 2s Qh 3c]
Место 1: Ирина_К (большой блайнд) сделал фолд до Флоп
Место 2: Bob Lee открыл [7h 7d] и выиграл ($2.90) , собрав тройка [семерки]
Место 3: kettle77 (баттон) открыл [Ah Kd] и проиграл , собрав старшая карта [туз]
Место 4: Zorro: the 2nd (малый блайнд) сделал фолд до Флоп
"""

RU_EN = """\
PokerStars Hand #300000000101:  Hold'em No Limit ($0.01/$0.02 USD) - 2026/03/14 20:15:09 EET [2026/03/14 13:15:09 ET]
Table 'Ланселот II' 6-max Seat #3 is the button
Seat 1: Ирина_К ($2 in chips)
Seat 2: Bob Lee ($1.50 in chips)
Seat 3: kettle77 ($3.10 in chips)
Seat 4: Zorro: the 2nd ($0.80 in chips)
Zorro: the 2nd: posts small blind $0.01
Ирина_К: posts big blind $0.02
*** HOLE CARDS ***
Dealt to kettle77 [Ah Kd]
Bob Lee: calls $0.02
kettle77: raises $0.06 to $0.08
Zorro: the 2nd: folds
Ирина_К: folds
Bob Lee: calls $0.06
*** FLOP *** [7c 8d 2s]
Bob Lee: bets $0.10
kettle77: raises $0.20 to $0.30
Bob Lee: calls $0.20
*** TURN *** [7c 8d 2s] [Qh]
Bob Lee: bets $1.12 and is all-in
kettle77: calls $1.12
*** RIVER *** [7c 8d 2s Qh] [3c]
*** SHOW DOWN ***
Bob Lee: shows [7h 7d] (three of a kind, Sevens)
kettle77: shows [Ah Kd] (high card Ace)
Bob Lee collected $2.90 from pot
*** SUMMARY ***
Total pot $3.03 | Rake $0.13
Board [7c 8d 2s Qh 3c]
Seat 1: Ирина_К (big blind) folded before Flop
Seat 2: Bob Lee showed [7h 7d] and won ($2.90) with three of a kind, Sevens
Seat 3: kettle77 (button) showed [Ah Kd] and lost with high card Ace
Seat 4: Zorro: the 2nd (small blind) folded before Flop
"""

# checks, and a call all in for less than the bet
RU_CHECKS = """\
Раздача PokerStars №300000000009:  Холдем Безлимитный ($0.01/$0.02 USD) - 21.04.2026 22:10:41 EET [21.04.2026 15:10:41 ВВ]
Стол 'Агелай III' 6-max Баттон на месте №2
Место 1: Пётр_В ($1.20 фишек)
Место 2: lumo ($2.40 фишек)
Место 3: Vika S ($0.64 фишек)
Vika S: ставит малый блайнд $0.01
Пётр_В: ставит большой блайнд $0.02
*** ЗАКРЫТЫЕ КАРТЫ ***
Карты lumo [Jc Js]
lumo: делает рейз $0.04 $0.06
Vika S: делает колл $0.05
Пётр_В: делает фолд
*** ФЛОП *** [2d 8c Jh]
Vika S: делает чек
lumo: делает бет $0.08
Vika S: делает колл $0.08
*** ТЕРН *** [2d 8c Jh] [5s]
Vika S: делает чек
lumo: делает чек
*** РИВЕР *** [2d 8c Jh 5s] [Qd]
Vika S: делает чек
lumo: делает бет $0.60
Vika S: делает колл $0.50 и олл-ин
Неуравненная ставка ($0.10) возвращается игроку lumo
*** ВСКРЫТИЕ КАРТ ***
Vika S: открывает [Qc Td] (пару [дамы])
lumo: открывает [Jc Js] (тройку [валеты])
lumo получил $1.24 ( банк)
*** ИТОГ ***
Общий банк $1.30 | Доля $0.06
Борд [2d 8c Jh 5s Qd]
Место 1: Пётр_В (большой блайнд) сделал фолд до Флоп
Место 2: lumo (баттон) открыл [Jc Js] и выиграл ($1.24) , собрав тройку [валеты]
Место 3: Vika S (малый блайнд) открыл [Qc Td] и проиграл , собрав пару [дамы]
"""

RU_CHECKS_EN = """\
PokerStars Hand #300000000109:  Hold'em No Limit ($0.01/$0.02 USD) - 2026/04/21 22:10:41 EET [2026/04/21 15:10:41 ET]
Table 'Агелай III' 6-max Seat #2 is the button
Seat 1: Пётр_В ($1.20 in chips)
Seat 2: lumo ($2.40 in chips)
Seat 3: Vika S ($0.64 in chips)
Vika S: posts small blind $0.01
Пётр_В: posts big blind $0.02
*** HOLE CARDS ***
Dealt to lumo [Jc Js]
lumo: raises $0.04 to $0.06
Vika S: calls $0.05
Пётр_В: folds
*** FLOP *** [2d 8c Jh]
Vika S: checks
lumo: bets $0.08
Vika S: calls $0.08
*** TURN *** [2d 8c Jh] [5s]
Vika S: checks
lumo: checks
*** RIVER *** [2d 8c Jh 5s] [Qd]
Vika S: checks
lumo: bets $0.60
Vika S: calls $0.50 and is all-in
Uncalled bet ($0.10) returned to lumo
*** SHOW DOWN ***
Vika S: shows [Qc Td] (a pair of Queens)
lumo: shows [Jc Js] (three of a kind, Jacks)
lumo collected $1.24 from pot
*** SUMMARY ***
Total pot $1.30 | Rake $0.06
Board [2d 8c Jh 5s Qd]
Seat 1: Пётр_В (big blind) folded before Flop
Seat 2: lumo (button) showed [Jc Js] and won ($1.24) with three of a kind, Jacks
Seat 3: Vika S (small blind) showed [Qc Td] and lost with a pair of Queens
"""

# (trailing spaces as the Portuguese exports write them)
PT = """\
Mão PokerStars #300000000002: Torneio #2900000001, 1000+100 Hold'em No Limit - Nível III (25/50) - 2016/02/11 21:03:44 ET 
Mesa '2900000001 3' 6-max Lugar #3 é o botão 
Lugar 1: ana.rita (1450 em fichas) 
Lugar 2: Kowal ski (980 em fichas) está sit out 
Lugar 3: T=Mar (2210, em fichas) 
Lugar 5: noodle_9 (1875 em fichas) 
ana.rita: coloca ante 5 
Kowal ski: coloca ante 5 
T=Mar: coloca ante 5 
noodle_9: coloca ante 5 
noodle_9: paga o small blind 25 
ana.rita: paga o big blind 50 
*** CARTAS DA MÃO *** 
T=Mar recebe [Qs Qc] 
Kowal ski: desiste  
T=Mar: aumenta 75 para 125 
noodle_9: iguala 100 
ana.rita: desiste  
*** FLOP *** [2h 9c Kd] 
noodle_9: passa  
T=Mar: aposta 200 
noodle_9: aumenta 400 para 600 
T=Mar: aumenta 1480 para 2080 e está all-in 
noodle_9: desiste  
Aposta não-igualada (1480) voltou para T=Mar 
T=Mar recebeu 1520 do pote 
*** SUMÁRIO *** 
Total pote 1520 | comissão 0  
Mesa [2h 9c Kd] 
Lugar 1: ana.rita (big blind) desistiu antes Flop 
Lugar 2: Kowal ski desistiu antes Flop (não apostou) 
Lugar 3: T=Mar (Botão) recebeu (1520) 
Lugar 5: noodle_9 (small blind) desistiu no Flop
"""

PT_EN = """\
PokerStars Hand #300000000102: Tournament #2900000001, 1000+100 Hold'em No Limit - Level III (25/50) - 2016/02/11 21:03:44 ET
Table '2900000001 3' 6-max Seat #3 is the button
Seat 1: ana.rita (1450 in chips)
Seat 2: Kowal ski (980 in chips) is sitting out
Seat 3: T=Mar (2210 in chips)
Seat 5: noodle_9 (1875 in chips)
ana.rita: posts the ante 5
Kowal ski: posts the ante 5
T=Mar: posts the ante 5
noodle_9: posts the ante 5
noodle_9: posts small blind 25
ana.rita: posts big blind 50
*** HOLE CARDS ***
Dealt to T=Mar [Qs Qc]
Kowal ski: folds
T=Mar: raises 75 to 125
noodle_9: calls 100
ana.rita: folds
*** FLOP *** [2h 9c Kd]
noodle_9: checks
T=Mar: bets 200
noodle_9: raises 400 to 600
T=Mar: raises 1480 to 2080 and is all-in
noodle_9: folds
Uncalled bet (1480) returned to T=Mar
T=Mar collected 1520 from pot
*** SUMMARY ***
Total pot 1520 | Rake 0
Board [2h 9c Kd]
Seat 1: ana.rita (big blind) folded before Flop
Seat 2: Kowal ski folded before Flop (didn't bet)
Seat 3: T=Mar (button) collected (1520)
Seat 5: noodle_9 (small blind) folded on the Flop
"""

ES = """\
Mano n.º 300000000003 de Zoom de PokerStars:  Hold'em No Limit (0.05 €/0.10 €) - 22-09-2025 9:05:41 CET [22-09-2025 3:05:41 ET]
Mesa "Merope" 6-max El asiento n.º 2 es el botón
Asiento 1: Paco Ruiz (10 € en fichas)
Asiento 2: lunaLlena (7.35 € en fichas)
Asiento 3: X_tremo (12.60 € en fichas)
Asiento 4: gato99 (4.05 € en fichas)
X_tremo: pone la ciega pequeña 0.05 €
gato99: pone la ciega grande 0.10 €
*** CARTAS DE MANO ***
Repartidas a Paco Ruiz [Jc 4d]
Paco Ruiz: se retira
lunaLlena no tiene conexión
lunaLlena ha agotado su tiempo mientras siga sin conexión
lunaLlena: se retira
X_tremo: se retira
La apuesta no igualada (0.05 €) ha sido devuelta a gato99
gato99 se lleva 0.10 € del bote
gato99: no muestra su mano
*** RESUMEN ***
Bote total 0.10 € | Comisión 0 €
Asiento 1: Paco Ruiz se retiró antes del Flop (no apostó)
Asiento 2: lunaLlena (botón) se retiró antes del Flop (no apostó)
Asiento 3: X_tremo (ciega pequeña) se retiró antes del Flop
Asiento 4: gato99 (ciega grande) recaudó (0.10 €)
"""

ES_EN = """\
PokerStars Zoom Hand #300000000103:  Hold'em No Limit (€0.05/€0.10) - 2025/09/22 9:05:41 CET [2025/09/22 3:05:41 ET]
Table 'Merope' 6-max Seat #2 is the button
Seat 1: Paco Ruiz (€10 in chips)
Seat 2: lunaLlena (€7.35 in chips)
Seat 3: X_tremo (€12.60 in chips)
Seat 4: gato99 (€4.05 in chips)
X_tremo: posts small blind €0.05
gato99: posts big blind €0.10
*** HOLE CARDS ***
Dealt to Paco Ruiz [Jc 4d]
Paco Ruiz: folds
lunaLlena is disconnected
lunaLlena has timed out while disconnected
lunaLlena: folds
X_tremo: folds
Uncalled bet (€0.05) returned to gato99
gato99 collected €0.10 from pot
gato99: doesn't show hand
*** SUMMARY ***
Total pot €0.10 | Rake €0
Seat 1: Paco Ruiz folded before Flop (didn't bet)
Seat 2: lunaLlena (button) folded before Flop (didn't bet)
Seat 3: X_tremo (small blind) folded before Flop
Seat 4: gato99 (big blind) collected (€0.10)
"""

# the Spanish client's betting and showdown (its street markers after the deal are English)
ES_SHOWDOWN = """\
Mano n.º 300000000008 de Zoom de PokerStars:  Hold'em No Limit (0.02 €/0.05 €) - 14-02-2025 18:22:07 CET [14-02-2025 12:22:07 ET]
Mesa "Electra" 6-max El asiento n.º 3 es el botón
Asiento 1: Lola_M (5 € en fichas)
Asiento 2: pepe.gz (6.40 € en fichas)
Asiento 3: Txema R (4.12 € en fichas)
Asiento 4: nube7 (5.55 € en fichas)
nube7: pone la ciega pequeña 0.02 €
Lola_M: pone la ciega grande 0.05 €
*** CARTAS DE MANO ***
Repartidas a pepe.gz [Ah Qs]
pepe.gz: sube 0.07 € a 0.12 €
Txema R: iguala 0.12 €
nube7: se retira
Lola_M: iguala 0.07 €
*** FLOP *** [9d 3c Qc]
Lola_M: pasa
pepe.gz: apuesta 0.20 €
Txema R: iguala 0.20 €
Lola_M: se retira
*** TURN *** [9d 3c Qc] [5h]
pepe.gz: apuesta 0.45 €
Txema R: iguala 0.45 €
*** RIVER *** [9d 3c Qc 5h] [2s]
pepe.gz: pasa
Txema R: pasa
*** SHOW DOWN ***
pepe.gz: muestra [Ah Qs] (pareja de damas)
Txema R: descarta su mano sin mostrar
pepe.gz se lleva 1.60 € del bote
*** RESUMEN ***
Bote total 1.68 € | Comisión 0.08 €
Comunitarias [9d 3c Qc 5h 2s]
Asiento 1: Lola_M (ciega grande) se retiró en el Flop
Asiento 2: pepe.gz muestra [Ah Qs] y ganó (1.60 €) con pareja de damas
Asiento 3: Txema R (botón) descartó sin mostrar [Jc Js]
Asiento 4: nube7 (ciega pequeña) se retiró antes del Flop
"""

ES_SHOWDOWN_EN = """\
PokerStars Zoom Hand #300000000108:  Hold'em No Limit (€0.02/€0.05) - 2025/02/14 18:22:07 CET [2025/02/14 12:22:07 ET]
Table 'Electra' 6-max Seat #3 is the button
Seat 1: Lola_M (€5 in chips)
Seat 2: pepe.gz (€6.40 in chips)
Seat 3: Txema R (€4.12 in chips)
Seat 4: nube7 (€5.55 in chips)
nube7: posts small blind €0.02
Lola_M: posts big blind €0.05
*** HOLE CARDS ***
Dealt to pepe.gz [Ah Qs]
pepe.gz: raises €0.07 to €0.12
Txema R: calls €0.12
nube7: folds
Lola_M: calls €0.07
*** FLOP *** [9d 3c Qc]
Lola_M: checks
pepe.gz: bets €0.20
Txema R: calls €0.20
Lola_M: folds
*** TURN *** [9d 3c Qc] [5h]
pepe.gz: bets €0.45
Txema R: calls €0.45
*** RIVER *** [9d 3c Qc 5h] [2s]
pepe.gz: checks
Txema R: checks
*** SHOW DOWN ***
pepe.gz: shows [Ah Qs] (a pair of Queens)
Txema R: mucks hand
pepe.gz collected €1.60 from pot
*** SUMMARY ***
Total pot €1.68 | Rake €0.08
Board [9d 3c Qc 5h 2s]
Seat 1: Lola_M (big blind) folded on the Flop
Seat 2: pepe.gz showed [Ah Qs] and won (€1.60) with a pair of Queens
Seat 3: Txema R (button) mucked [Jc Js]
Seat 4: nube7 (small blind) folded before Flop
"""

# the French client seen: its header and the table's money in French, the rest in English
# with a space before the colon after a name
FR = """\
Main PokerStars n°300000000004 :  Hold'em No Limit (100/200) - 03/08/2026 22:10:00 CET [03/08/2026 16:10:00 ET]
Table 'Artémis III' 6-max (argent fictif) Seat #1 is the button
Seat 1: Lou (20000 in chips)
Seat 2: Chantal B (15400 in chips)
Seat 3: Remi95 (9000 in chips)
Chantal B : posts small blind 100
Remi95 : posts big blind 200
*** HOLE CARDS ***
Dealt to Lou [As 5s]
Lou : raises 400 to 600
Chantal B : folds
Remi95 : calls 400
*** FLOP *** [5d 5c Th]
Remi95 : checks
Lou : bets 800
Remi95 : folds
Uncalled bet (800) returned to Lou
Lou collected 1300 from pot
Lou : doesn't show hand
*** SUMMARY ***
Total pot 1300 | Rake 0
Board [5d 5c Th]
Seat 1: Lou (button) collected (1300)
Seat 2: Chantal B (small blind) folded before Flop
Seat 3: Remi95 (big blind) folded on the Flop
"""

FR_EN = """\
PokerStars Hand #300000000104:  Hold'em No Limit (100/200) - 2026/08/03 22:10:00 CET [2026/08/03 16:10:00 ET]
Table 'Artémis III' 6-max (Play Money) Seat #1 is the button
Seat 1: Lou (20000 in chips)
Seat 2: Chantal B (15400 in chips)
Seat 3: Remi95 (9000 in chips)
Chantal B: posts small blind 100
Remi95: posts big blind 200
*** HOLE CARDS ***
Dealt to Lou [As 5s]
Lou: raises 400 to 600
Chantal B: folds
Remi95: calls 400
*** FLOP *** [5d 5c Th]
Remi95: checks
Lou: bets 800
Remi95: folds
Uncalled bet (800) returned to Lou
Lou collected 1300 from pot
Lou: doesn't show hand
*** SUMMARY ***
Total pot 1300 | Rake 0
Board [5d 5c Th]
Seat 1: Lou (button) collected (1300)
Seat 2: Chantal B (small blind) folded before Flop
Seat 3: Remi95 (big blind) folded on the Flop
"""

# two wordings of the Portuguese client's tournament hands: a winner who does not show, a
# player's disconnection
PT_WALK = """\
Mão PokerStars #300000000007: Torneio #2900000007, $ 0.98+$ 0.12 USD Hold'em No Limit - Nível IV (30/60) - 2025/07/22 11:02:10 ET
Mesa '2900000007 4' 9-max Lugar #2 é o botão
Lugar 1: Zeca P (2400 em fichas)
Lugar 2: mariana_b (1310 em fichas)
Lugar 3: Tio Rui (3055 em fichas)
Lugar 5: kz_77 (980 em fichas)
Zeca P: coloca ante 10
mariana_b: coloca ante 10
Tio Rui: coloca ante 10
kz_77: coloca ante 10
Tio Rui: paga o small blind 30
kz_77: paga o big blind 60
*** CARTAS DA MÃO ***
Zeca P recebe [8d 8s]
Zeca P: aumenta 90 para 150
mariana_b está sem ligação
mariana_b: desiste
Tio Rui: desiste
kz_77: desiste
Aposta não-igualada (90) voltou para Zeca P
Zeca P recebeu 190 do pote
Zeca P: não mostra a mão
*** SUMÁRIO ***
Total pote 190 | comissão 0
Lugar 1: Zeca P recebeu (190)
Lugar 2: mariana_b (Botão) desistiu antes Flop (não apostou)
Lugar 3: Tio Rui (small blind) desistiu antes Flop
Lugar 5: kz_77 (big blind) desistiu antes Flop
"""

PT_WALK_EN = """\
PokerStars Hand #300000000107: Tournament #2900000007, $ 0.98+$ 0.12 USD Hold'em No Limit - Level IV (30/60) - 2025/07/22 11:02:10 ET
Table '2900000007 4' 9-max Seat #2 is the button
Seat 1: Zeca P (2400 in chips)
Seat 2: mariana_b (1310 in chips)
Seat 3: Tio Rui (3055 in chips)
Seat 5: kz_77 (980 in chips)
Zeca P: posts the ante 10
mariana_b: posts the ante 10
Tio Rui: posts the ante 10
kz_77: posts the ante 10
Tio Rui: posts small blind 30
kz_77: posts big blind 60
*** HOLE CARDS ***
Dealt to Zeca P [8d 8s]
Zeca P: raises 90 to 150
mariana_b is disconnected
mariana_b: folds
Tio Rui: folds
kz_77: folds
Uncalled bet (90) returned to Zeca P
Zeca P collected 190 from pot
Zeca P: doesn't show hand
*** SUMMARY ***
Total pot 190 | Rake 0
Seat 1: Zeca P collected (190)
Seat 2: mariana_b (button) folded before Flop (didn't bet)
Seat 3: Tio Rui (small blind) folded before Flop
Seat 5: kz_77 (big blind) folded before Flop
"""

# the client in Portuguese of Portugal (PokerStars.pt, euros after the amount, 2026): a cash hand
# with a player entering on a big blind, a raise all in called all in for less (the rest returned),
# a showdown; the table's messages (one who may play after the button, one timed out, leaving,
# joining, disconnected)
PT_PT = """\
Mão #300000000011 da PokerStars:  Hold'em No Limit (0.02 €/0.05 € EUR) - 2026/09/14 21:07:33 UTC [2026/09/14 17:07:33 ET]
Mesa 'Andrómeda IV' 6-max Lugar #1 é o botão
Lugar 1: Tiago.M (5.60 € em fichas)
Lugar 2: rui_costa7 (1.25 € em fichas)
Lugar 3: Lena P (2 € em fichas)
Lugar 4: Quim 88 (4.10 € em fichas)
Lugar 5: bacalhau99 (0.90 € em fichas)
Lugar 6: Marta_F (2.35 € em fichas)
Nuno F poderá jogar depois do botão
rui_costa7: é small blind 0.02 €
Lena P: é big blind 0.05 €
bacalhau99: é big blind 0.05 €
*** CARTAS HOLE ***
Tiago.M recebe [Ac Kd]
Quim 88: iguala 0.05 €
bacalhau99: passa
Marta_F: desiste
Tiago.M: sobe 0.15 € para 0.20 €
rui_costa7: desiste
Lena P: iguala 0.15 €
Quim 88: iguala 0.15 €
bacalhau99 gastou o tempo
bacalhau99: desiste
*** FLOP *** [8s Kc 2d]
Lena P: passa
Quim 88: aposta 0.30 €
Tiago.M: sobe 0.60 € para 0.90 €
Lena P: desiste
Lena P abandona a mesa
Quim 88: iguala 0.60 €
*** TURN *** [8s Kc 2d] [5h]
Quim 88: aposta 1 €
Ana Sofia junta-se à mesa no lugar #3
Tiago.M: sobe 3.50 € para 4.50 € e está all-in
rui_costa7 está sem ligação
Quim 88: iguala 2 € e está all-in
Aposta não-igualada (1.50 €) voltou para Tiago.M
*** RIVER *** [8s Kc 2d 5h] [8d]
*** SHOW DOWN ***
Tiago.M: mostra [Ac Kd] (dois pares, Reis e Oitos)
Quim 88: mostra [Kh 9c] (dois pares, Reis e Oitos)
Tiago.M recebeu 8.09 € do pote
*** SUMÁRIO ***
Total pote 8.47 € | comissão 0.38 €
Mesa [8s Kc 2d 5h 8d]
Lugar 1: Tiago.M (Botão) mostrou [Ac Kd] e ganhou (8.09 €) com dois pares, Reis e Oitos
Lugar 2: rui_costa7 (small blind) desistiu antes Flop
Lugar 3: Lena P (big blind) desistiu no Flop
Lugar 4: Quim 88 mostrou [Kh 9c] e perdeu com dois pares, Reis e Oitos
Lugar 5: bacalhau99 desistiu antes Flop
Lugar 6: Marta_F desistiu antes Flop (não apostou)
"""

PT_PT_EN = """\
PokerStars Hand #300000000111:  Hold'em No Limit (€0.02/€0.05 EUR) - 2026/09/14 21:07:33 UTC [2026/09/14 17:07:33 ET]
Table 'Andrómeda IV' 6-max Seat #1 is the button
Seat 1: Tiago.M (€5.60 in chips)
Seat 2: rui_costa7 (€1.25 in chips)
Seat 3: Lena P (€2 in chips)
Seat 4: Quim 88 (€4.10 in chips)
Seat 5: bacalhau99 (€0.90 in chips)
Seat 6: Marta_F (€2.35 in chips)
Nuno F will be allowed to play after the button
rui_costa7: posts small blind €0.02
Lena P: posts big blind €0.05
bacalhau99: posts big blind €0.05
*** HOLE CARDS ***
Dealt to Tiago.M [Ac Kd]
Quim 88: calls €0.05
bacalhau99: checks
Marta_F: folds
Tiago.M: raises €0.15 to €0.20
rui_costa7: folds
Lena P: calls €0.15
Quim 88: calls €0.15
bacalhau99 has timed out
bacalhau99: folds
*** FLOP *** [8s Kc 2d]
Lena P: checks
Quim 88: bets €0.30
Tiago.M: raises €0.60 to €0.90
Lena P: folds
Lena P leaves the table
Quim 88: calls €0.60
*** TURN *** [8s Kc 2d] [5h]
Quim 88: bets €1
Ana Sofia joins the table at seat #3
Tiago.M: raises €3.50 to €4.50 and is all-in
rui_costa7 is disconnected
Quim 88: calls €2 and is all-in
Uncalled bet (€1.50) returned to Tiago.M
*** RIVER *** [8s Kc 2d 5h] [8d]
*** SHOW DOWN ***
Tiago.M: shows [Ac Kd] (two pair, Kings and Eights)
Quim 88: shows [Kh 9c] (two pair, Kings and Eights)
Tiago.M collected €8.09 from pot
*** SUMMARY ***
Total pot €8.47 | Rake €0.38
Board [8s Kc 2d 5h 8d]
Seat 1: Tiago.M (button) showed [Ac Kd] and won (€8.09) with two pair, Kings and Eights
Seat 2: rui_costa7 (small blind) folded before Flop
Seat 3: Lena P (big blind) folded on the Flop
Seat 4: Quim 88 showed [Kh 9c] and lost with two pair, Kings and Eights
Seat 5: bacalhau99 folded before Flop
Seat 6: Marta_F folded before Flop (didn't bet)
"""

# the same client: a returning player's small and big blinds, a raise on the river called,
# the loser's cards hidden at the showdown (the summary writes them)
PT_PT_MUCK = """\
Mão #300000000012 da PokerStars:  Hold'em No Limit (0.01 €/0.02 € EUR) - 2026/09/14 21:31:02 UTC [2026/09/14 17:31:02 ET]
Mesa 'Sirius II' 6-max Lugar #4 é o botão
Lugar 1: Inês_R (1.84 € em fichas)
Lugar 2: Zeca.B (0.66 € em fichas)
Lugar 4: pombal77 (2.10 € em fichas)
Lugar 5: Carla Mota (1.12 € em fichas)
Lugar 6: Vasco_22 (3.05 € em fichas)
Carla Mota: é small blind 0.01 €
Vasco_22: é big blind 0.02 €
Zeca.B: é small & big blinds 0.03 €
*** CARTAS HOLE ***
Inês_R recebe [Qh Qs]
Inês_R: sobe 0.04 € para 0.06 €
Zeca.B: iguala 0.04 €
pombal77: desiste
Carla Mota: desiste
Vasco_22: iguala 0.04 €
*** FLOP *** [Jd 7c 3s]
Vasco_22: passa
Inês_R: aposta 0.12 €
Zeca.B: iguala 0.12 €
Vasco_22: desiste
*** TURN *** [Jd 7c 3s] [4h]
Inês_R: passa
Zeca.B: passa
*** RIVER *** [Jd 7c 3s 4h] [Tc]
Inês_R: aposta 0.20 €
Zeca.B: sobe 0.20 € para 0.40 €
Inês_R: iguala 0.20 €
*** SHOW DOWN ***
Zeca.B: mostra [Jh Ts] (dois pares, Valetes e Dez)
Inês_R: esconde a mão
Zeca.B recebeu 1.18 € do pote
*** SUMÁRIO ***
Total pote 1.24 € | comissão 0.06 €
Mesa [Jd 7c 3s 4h Tc]
Lugar 1: Inês_R escondeu as cartas [Qh Qs]
Lugar 2: Zeca.B mostrou [Jh Ts] e ganhou (1.18 €) com dois pares, Valetes e Dez
Lugar 4: pombal77 (Botão) desistiu antes Flop (não apostou)
Lugar 5: Carla Mota (small blind) desistiu antes Flop
Lugar 6: Vasco_22 (big blind) desistiu no Flop
"""

PT_PT_MUCK_EN = """\
PokerStars Hand #300000000112:  Hold'em No Limit (€0.01/€0.02 EUR) - 2026/09/14 21:31:02 UTC [2026/09/14 17:31:02 ET]
Table 'Sirius II' 6-max Seat #4 is the button
Seat 1: Inês_R (€1.84 in chips)
Seat 2: Zeca.B (€0.66 in chips)
Seat 4: pombal77 (€2.10 in chips)
Seat 5: Carla Mota (€1.12 in chips)
Seat 6: Vasco_22 (€3.05 in chips)
Carla Mota: posts small blind €0.01
Vasco_22: posts big blind €0.02
Zeca.B: posts small & big blinds €0.03
*** HOLE CARDS ***
Dealt to Inês_R [Qh Qs]
Inês_R: raises €0.04 to €0.06
Zeca.B: calls €0.04
pombal77: folds
Carla Mota: folds
Vasco_22: calls €0.04
*** FLOP *** [Jd 7c 3s]
Vasco_22: checks
Inês_R: bets €0.12
Zeca.B: calls €0.12
Vasco_22: folds
*** TURN *** [Jd 7c 3s] [4h]
Inês_R: checks
Zeca.B: checks
*** RIVER *** [Jd 7c 3s 4h] [Tc]
Inês_R: bets €0.20
Zeca.B: raises €0.20 to €0.40
Inês_R: calls €0.20
*** SHOW DOWN ***
Zeca.B: shows [Jh Ts] (two pair, Jacks and Tens)
Inês_R: mucks hand
Zeca.B collected €1.18 from pot
*** SUMMARY ***
Total pot €1.24 | Rake €0.06
Board [Jd 7c 3s 4h Tc]
Seat 1: Inês_R mucked [Qh Qs]
Seat 2: Zeca.B showed [Jh Ts] and won (€1.18) with two pair, Jacks and Tens
Seat 4: pombal77 (button) folded before Flop (didn't bet)
Seat 5: Carla Mota (small blind) folded before Flop
Seat 6: Vasco_22 (big blind) folded on the Flop
"""

# the same client: a bet all in that no one calls, the winner not showing, the summary's award
PT_PT_WALK = """\
Mão #300000000013 da PokerStars:  Hold'em No Limit (0.01 €/0.02 € EUR) - 2026/09/14 21:33:40 UTC [2026/09/14 17:33:40 ET]
Mesa 'Cassiopeia I' 6-max Lugar #4 é o botão
Lugar 1: Duarte (0.80 € em fichas)
Lugar 3: Bia_Lx (2.14 € em fichas)
Lugar 4: Fonseca10 (1.96 € em fichas)
Duarte: é small blind 0.01 €
Bia_Lx: é big blind 0.02 €
*** CARTAS HOLE ***
Fonseca10 recebe [9h 9d]
Fonseca10: sobe 0.04 € para 0.06 €
Duarte: iguala 0.05 €
Bia_Lx: iguala 0.04 €
*** FLOP *** [Ah 6c 2s]
Duarte: aposta 0.74 € e está all-in
Bia_Lx: desiste
Fonseca10: desiste
Aposta não-igualada (0.74 €) voltou para Duarte
Duarte recebeu 0.17 € do pote
Duarte: não mostra a mão
*** SUMÁRIO ***
Total pote 0.18 € | comissão 0.01 €
Mesa [Ah 6c 2s]
Lugar 1: Duarte (small blind) recebeu (0.17 €)
Lugar 3: Bia_Lx (big blind) desistiu no Flop
Lugar 4: Fonseca10 (Botão) desistiu no Flop
"""

PT_PT_WALK_EN = """\
PokerStars Hand #300000000113:  Hold'em No Limit (€0.01/€0.02 EUR) - 2026/09/14 21:33:40 UTC [2026/09/14 17:33:40 ET]
Table 'Cassiopeia I' 6-max Seat #4 is the button
Seat 1: Duarte (€0.80 in chips)
Seat 3: Bia_Lx (€2.14 in chips)
Seat 4: Fonseca10 (€1.96 in chips)
Duarte: posts small blind €0.01
Bia_Lx: posts big blind €0.02
*** HOLE CARDS ***
Dealt to Fonseca10 [9h 9d]
Fonseca10: raises €0.04 to €0.06
Duarte: calls €0.05
Bia_Lx: calls €0.04
*** FLOP *** [Ah 6c 2s]
Duarte: bets €0.74 and is all-in
Bia_Lx: folds
Fonseca10: folds
Uncalled bet (€0.74) returned to Duarte
Duarte collected €0.17 from pot
Duarte: doesn't show hand
*** SUMMARY ***
Total pot €0.18 | Rake €0.01
Board [Ah 6c 2s]
Seat 1: Duarte (small blind) collected (€0.17)
Seat 3: Bia_Lx (big blind) folded on the Flop
Seat 4: Fonseca10 (button) folded on the Flop
"""

# the Swedish client (PokerStars.SE): a tournament hand with a showdown and a player out,
# then a cash hand where the caller mucks (trailing spaces as its exports write them)
SV = """\
PokerStars hand nr 300000000005: Turnering #2900000005, $0.44+$0.06 USD Holdem No limit - Nivå II (15/30) - 2022-11-05 20:14:09 CET [2022-11-05 14:14:09 ET]
Bord '2900000005 2' 9-max Plats #4 har knappen
Plats 1: Lars Ek (1500 i marker) 
Plats 2: moose_99 (1200 i marker) står över
Plats 4: Kaka (2310 i marker) 
Plats 6: nisse.b (845 i marker) 
Plats 7: Fjord X (1620 i marker) 
nisse.b: lägger small blind 15
Fjord X: lägger big blind 30
*** HÅLKORT ***
Utdelat till Lars Ek [Ah Kd]
Lars Ek: raise 45 till 75
moose_99: fold 
Kaka: call 75
nisse.b: call 60
Fjord X: fold 
moose_99 har förlorat anslutningen 
*** FLOPP *** [7c Kh 2s]
nisse.b: check 
Lars Ek: bet 150
Kaka: call 150
nisse.b: raise 620 till 770 och är all-in
Lars Ek: call 620
Kaka: fold 
moose_99 har kommit tillbaka
*** TURN *** [7c Kh 2s] [9d]
*** RIVER *** [7c Kh 2s 9d] [3h]
*** VISNING ***
nisse.b: visar [Qs Qd] (par i damer)
Lars Ek: visar [Ah Kd] (par i kungar)
Lars Ek vann 1945 från potten
nisse.b avslutade turneringen på 7:e plats
*** SAMMANFATTNING ***
Total pott 1945 | Avgift 0 
Bord [7c Kh 2s 9d 3h]
Plats 1: Lars Ek visade [Ah Kd] och vann (1945) med par i kungar
Plats 2: moose_99 foldade innan Flopp (satsade inte)
Plats 4: Kaka (knappen) foldade på Flopp
Plats 6: nisse.b (small blind) visade [Qs Qd] och förlorade med par i damer
Plats 7: Fjord X (big blind) foldade innan Flopp
"""

SV_EN = """\
PokerStars Hand #300000000105: Tournament #2900000005, $0.44+$0.06 USD Hold'em No Limit - Level II (15/30) - 2022/11/05 20:14:09 CET [2022/11/05 14:14:09 ET]
Table '2900000005 2' 9-max Seat #4 is the button
Seat 1: Lars Ek (1500 in chips)
Seat 2: moose_99 (1200 in chips) is sitting out
Seat 4: Kaka (2310 in chips)
Seat 6: nisse.b (845 in chips)
Seat 7: Fjord X (1620 in chips)
nisse.b: posts small blind 15
Fjord X: posts big blind 30
*** HOLE CARDS ***
Dealt to Lars Ek [Ah Kd]
Lars Ek: raises 45 to 75
moose_99: folds
Kaka: calls 75
nisse.b: calls 60
Fjord X: folds
moose_99 is disconnected
*** FLOP *** [7c Kh 2s]
nisse.b: checks
Lars Ek: bets 150
Kaka: calls 150
nisse.b: raises 620 to 770 and is all-in
Lars Ek: calls 620
Kaka: folds
moose_99 has returned
*** TURN *** [7c Kh 2s] [9d]
*** RIVER *** [7c Kh 2s 9d] [3h]
*** SHOW DOWN ***
nisse.b: shows [Qs Qd] (a pair of Queens)
Lars Ek: shows [Ah Kd] (a pair of Kings)
Lars Ek collected 1945 from pot
nisse.b finished the tournament in 7th place
*** SUMMARY ***
Total pot 1945 | Rake 0
Board [7c Kh 2s 9d 3h]
Seat 1: Lars Ek showed [Ah Kd] and won (1945) with a pair of Kings
Seat 2: moose_99 folded before Flop (didn't bet)
Seat 4: Kaka (button) folded on the Flop
Seat 6: nisse.b (small blind) showed [Qs Qd] and lost with a pair of Queens
Seat 7: Fjord X (big blind) folded before Flop
"""

# three all in: a main pot and a side pot, each collect and the total's pots in Swedish
SV_SIDE_POT = """\
PokerStars hand nr 300000000010: Turnering #2900000005, $0.44+$0.06 USD Holdem No limit - Nivå IV (50/100) - 2022-11-05 21:02:44 CET [2022-11-05 15:02:44 ET]
Bord '2900000005 4' 9-max Plats #1 har knappen
Plats 1: Lars Ek (2710 i marker) 
Plats 4: Kaka (880 i marker) 
Plats 6: Tomte77 (540 i marker) 
Plats 7: Fjord X (3300 i marker) 
Kaka: lägger small blind 50
Tomte77: lägger big blind 100
*** HÅLKORT ***
Utdelat till Lars Ek [Qh Qd]
Fjord X: fold 
Lars Ek: raise 200 till 300
Kaka: raise 580 till 880 och är all-in
Tomte77: call 440 och är all-in
Lars Ek: call 580
*** FLOPP *** [2c 9s Kd]
*** TURN *** [2c 9s Kd] [4h]
*** RIVER *** [2c 9s Kd 4h] [7c]
*** VISNING ***
Kaka: visar [Ac Jc] (högt kort ess)
Lars Ek: visar [Qh Qd] (par i damer)
Lars Ek vann 680 från  sidopotten
Tomte77: visar [Ts 9d] (par i nior)
Lars Ek vann 1620 från  huvudpotten
Tomte77 avslutade turneringen på 6:e plats
Kaka avslutade turneringen på 5:e plats
*** SAMMANFATTNING ***
Total pott 2300 Huvudpott 1620. Sidopott 680. | Avgift 0 
Bord [2c 9s Kd 4h 7c]
Plats 1: Lars Ek (knappen) visade [Qh Qd] och vann (2300) med par i damer
Plats 4: Kaka (small blind) visade [Ac Jc] och förlorade med högt kort ess
Plats 6: Tomte77 (big blind) visade [Ts 9d] och förlorade med par i nior
Plats 7: Fjord X foldade innan Flopp (satsade inte)
"""

SV_SIDE_POT_EN = """\
PokerStars Hand #300000000110: Tournament #2900000005, $0.44+$0.06 USD Hold'em No Limit - Level IV (50/100) - 2022/11/05 21:02:44 CET [2022/11/05 15:02:44 ET]
Table '2900000005 4' 9-max Seat #1 is the button
Seat 1: Lars Ek (2710 in chips)
Seat 4: Kaka (880 in chips)
Seat 6: Tomte77 (540 in chips)
Seat 7: Fjord X (3300 in chips)
Kaka: posts small blind 50
Tomte77: posts big blind 100
*** HOLE CARDS ***
Dealt to Lars Ek [Qh Qd]
Fjord X: folds
Lars Ek: raises 200 to 300
Kaka: raises 580 to 880 and is all-in
Tomte77: calls 440 and is all-in
Lars Ek: calls 580
*** FLOP *** [2c 9s Kd]
*** TURN *** [2c 9s Kd] [4h]
*** RIVER *** [2c 9s Kd 4h] [7c]
*** SHOW DOWN ***
Kaka: shows [Ac Jc] (high card Ace)
Lars Ek: shows [Qh Qd] (a pair of Queens)
Lars Ek collected 680 from side pot
Tomte77: shows [Ts 9d] (a pair of Nines)
Lars Ek collected 1620 from main pot
Tomte77 finished the tournament in 6th place
Kaka finished the tournament in 5th place
*** SUMMARY ***
Total pot 2300 Main pot 1620. Side pot 680. | Rake 0
Board [2c 9s Kd 4h 7c]
Seat 1: Lars Ek (button) showed [Qh Qd] and won (2300) with a pair of Queens
Seat 4: Kaka (small blind) showed [Ac Jc] and lost with high card Ace
Seat 6: Tomte77 (big blind) showed [Ts 9d] and lost with a pair of Nines
Seat 7: Fjord X folded before Flop (didn't bet)
"""

SV_CASH = """\
PokerStars hand nr 300000000006:  Holdem No limit ($0.01/$0.02 USD) - 2022-11-06 9:05:31 CET [2022-11-06 3:05:31 ET]
Bord 'Vega III' 6-max Plats #2 har knappen
Plats 1: Oskar_L ($2 i marker) 
Plats 2: bjorn b ($1.74 i marker) 
Plats 3: Tuva77 ($2.31 i marker) 
Plats 5: gr1mm ($0.96 i marker) 
Tuva77: lägger small blind $0.01
gr1mm: lägger big blind $0.02
*** HÅLKORT ***
Utdelat till Oskar_L [As Ad]
Oskar_L: raise $0.04 till $0.06
bjorn b: call $0.06
Tuva77 tid har gått ut
Tuva77: fold 
Tuva77 står över
gr1mm: call $0.04
*** FLOPP *** [Tc 4d 9h]
gr1mm: check 
Tuva77 lämnar bordet
Oskar_L: bet $0.12
bjorn b: fold 
gr1mm: call $0.12
*** TURN *** [Tc 4d 9h] [2c]
gr1mm: check 
Oskar_L: check 
Ulla K sätter sig ned vid bordet på plats #4 
*** RIVER *** [Tc 4d 9h 2c] [Kd]
gr1mm: bet $0.20
Oskar_L: call $0.20
*** VISNING ***
gr1mm: visar [Kc Td] (två par, kungar och tior)
Oskar_L: visar inte 
gr1mm vann $0.80 från potten
*** SAMMANFATTNING ***
Total pott $0.83 | Avgift $0.03 
Bord [Tc 4d 9h 2c Kd]
Plats 1: Oskar_L visade ej [As Ad]
Plats 2: bjorn b (knappen) foldade på Flopp
Plats 3: Tuva77 (small blind) foldade innan Flopp
Plats 5: gr1mm (big blind) visade [Kc Td] och vann ($0.80) med två par, kungar och tior
"""

SV_CASH_EN = """\
PokerStars Hand #300000000106:  Hold'em No Limit ($0.01/$0.02 USD) - 2022/11/06 9:05:31 CET [2022/11/06 3:05:31 ET]
Table 'Vega III' 6-max Seat #2 is the button
Seat 1: Oskar_L ($2 in chips)
Seat 2: bjorn b ($1.74 in chips)
Seat 3: Tuva77 ($2.31 in chips)
Seat 5: gr1mm ($0.96 in chips)
Tuva77: posts small blind $0.01
gr1mm: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Oskar_L [As Ad]
Oskar_L: raises $0.04 to $0.06
bjorn b: calls $0.06
Tuva77 has timed out
Tuva77: folds
Tuva77 is sitting out
gr1mm: calls $0.04
*** FLOP *** [Tc 4d 9h]
gr1mm: checks
Tuva77 leaves the table
Oskar_L: bets $0.12
bjorn b: folds
gr1mm: calls $0.12
*** TURN *** [Tc 4d 9h] [2c]
gr1mm: checks
Oskar_L: checks
Ulla K joins the table at seat #4
*** RIVER *** [Tc 4d 9h 2c] [Kd]
gr1mm: bets $0.20
Oskar_L: calls $0.20
*** SHOW DOWN ***
gr1mm: shows [Kc Td] (two pair, Kings and Tens)
Oskar_L: mucks hand
gr1mm collected $0.80 from pot
*** SUMMARY ***
Total pot $0.83 | Rake $0.03
Board [Tc 4d 9h 2c Kd]
Seat 1: Oskar_L mucked [As Ad]
Seat 2: bjorn b (button) folded on the Flop
Seat 3: Tuva77 (small blind) folded before Flop
Seat 5: gr1mm (big blind) showed [Kc Td] and won ($0.80) with two pair, Kings and Tens
"""

# language: (the hand, its English twin, its hand id, the twin's, the start as written, the day)
HANDS = {
    "ru": (RU, RU_EN, "PS-300000000001", "PS-300000000101", "14.03.2026 20:15:09 EET [14.03.2026 13:15:09 ВВ]", "2026-03-14"),
    "pt": (PT, PT_EN, "PS-300000000002", "PS-300000000102", "2016/02/11 21:03:44 ET", "2016-02-11"),
    "es": (ES, ES_EN, "PS-300000000003", "PS-300000000103", "22-09-2025 9:05:41 CET [22-09-2025 3:05:41 ET]", "2025-09-22"),
    "fr": (FR, FR_EN, "PS-300000000004", "PS-300000000104", "03/08/2026 22:10:00 CET [03/08/2026 16:10:00 ET]", "2026-08-03"),
    "ru-checks": (RU_CHECKS, RU_CHECKS_EN, "PS-300000000009", "PS-300000000109",
                  "21.04.2026 22:10:41 EET [21.04.2026 15:10:41 ВВ]", "2026-04-21"),
    "es-showdown": (ES_SHOWDOWN, ES_SHOWDOWN_EN, "PS-300000000008", "PS-300000000108",
                    "14-02-2025 18:22:07 CET [14-02-2025 12:22:07 ET]", "2025-02-14"),
    "pt-walk": (PT_WALK, PT_WALK_EN, "PS-300000000007", "PS-300000000107", "2025/07/22 11:02:10 ET", "2025-07-22"),
    "pt-PT": (PT_PT, PT_PT_EN, "PS-300000000011", "PS-300000000111", "2026/09/14 21:07:33 UTC [2026/09/14 17:07:33 ET]",
              "2026-09-14"),
    "pt-PT-muck": (PT_PT_MUCK, PT_PT_MUCK_EN, "PS-300000000012", "PS-300000000112",
                   "2026/09/14 21:31:02 UTC [2026/09/14 17:31:02 ET]", "2026-09-14"),
    "pt-PT-walk": (PT_PT_WALK, PT_PT_WALK_EN, "PS-300000000013", "PS-300000000113",
                   "2026/09/14 21:33:40 UTC [2026/09/14 17:33:40 ET]", "2026-09-14"),
    "sv": (SV, SV_EN, "PS-300000000005", "PS-300000000105", "2022-11-05 20:14:09 CET [2022-11-05 14:14:09 ET]", "2022-11-05"),
    "sv-side-pot": (SV_SIDE_POT, SV_SIDE_POT_EN, "PS-300000000010", "PS-300000000110",
                    "2022-11-05 21:02:44 CET [2022-11-05 15:02:44 ET]", "2022-11-05"),
    "sv-cash": (SV_CASH, SV_CASH_EN, "PS-300000000006", "PS-300000000106", "2022-11-06 9:05:31 CET [2022-11-06 3:05:31 ET]",
                "2022-11-06"),
}
_EVENT = "seq, street, kind, line_no, seat, player, amount, to_amount, all_in, cards, pot_label"
_HAND = ("site, format, variant, betting, small_blind, big_blind, ante, currency, amount_scale, is_tournament, "
         "tournament_id, buy_in, level, table_name, max_seats, button_seat, started_at")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Every hand of HANDS and its twin, one file each, audited into one store."""
    root = tmp_path_factory.mktemp("languages")
    paths = []
    for name, (hand, english, *_) in HANDS.items():
        for suffix, text in (("", hand), ("-en", english)):
            path = root / f"{name}{suffix}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    result = audit(paths, db=root / "store.duckdb", edition_name="tda-2024")
    con = duckdb.connect(str(root / "store.duckdb"), read_only=True)
    yield result, con, root
    con.close()


def _parse(text: str) -> list:
    lines = ((i + 1, 0, t) for i, t in enumerate(text.splitlines()))
    return list(PokerStarsParser().iter_hands(lines, "x.txt"))


def test_every_hand_and_its_twin_is_stored(store):
    result, con, _ = store
    assert (result.ingest.stored, result.ingest.rejected) == (2 * len(HANDS), 0)
    assert con.execute("SELECT count(*) FROM ingest_errors").fetchone() == (0,)


@pytest.mark.parametrize("name", list(HANDS))
def test_a_localized_hand_has_its_english_twins_events(store, name):
    _, con, _ = store
    _, _, hand_id, twin_id, _, _ = HANDS[name]
    events = con.execute(f"SELECT {_EVENT} FROM events WHERE hand_id = ? ORDER BY seq", [hand_id]).fetchall()
    twin = con.execute(f"SELECT {_EVENT} FROM events WHERE hand_id = ? ORDER BY seq", [twin_id]).fetchall()
    assert events == twin
    assert not [e for e in events if e[2] == "unread"]
    assert len({e[2] for e in events}) >= 8  # (a hand of many kinds of line, not a walk of two)
    fields = con.execute(f"SELECT {_HAND} FROM hands WHERE hand_id IN (?, ?) ORDER BY hand_id", [hand_id, twin_id]).fetchall()
    assert fields[0] == fields[1]


@pytest.mark.parametrize("name", list(HANDS))
def test_a_localized_hand_keeps_its_lines_as_written(store, name):
    _, con, root = store
    text, _, hand_id, _, started, day = HANDS[name]
    lines = text.splitlines()
    for line_no, written in con.execute("SELECT line_no, text FROM events WHERE hand_id = ? AND text IS NOT NULL", [hand_id]).fetchall():
        assert written.rstrip() == lines[line_no - 1].rstrip()
    # its start as written, the date read in the language's order; its content hash the text's as written
    row = con.execute("SELECT started_at_text, CAST(started_at AS DATE)::VARCHAR, content_hash FROM hands WHERE hand_id = ?",
                      [hand_id]).fetchone()
    assert row == (started, day, content_hash(text))
    (parsed,) = _parse(text)
    assert parsed.content_hash == content_hash(text) != content_hash(HANDS[name][1])


@pytest.mark.parametrize("name", ["ru-checks", "es-showdown", "pt-walk", "pt-PT", "pt-PT-muck", "pt-PT-walk", "sv", "sv-side-pot", "sv-cash"])
def test_a_localized_hand_reconciles_and_is_judged_as_its_twin(store, name):
    """No finding (chip-conservation, award-amount, unread-lines...) on either; the replay's pots
    are the written total less the rake, and each contested one's winner is the one written."""
    _, con, _ = store
    _, _, hand_id, twin_id, _, _ = HANDS[name]
    assert con.execute("SELECT count(*) FROM findings WHERE hand_id IN (?, ?)", [hand_id, twin_id]).fetchone() == (0,)
    pots = {}
    for hid in (hand_id, twin_id):
        pots[hid] = con.execute("SELECT pot_index, amount, contested, hi_winners, verified FROM pots WHERE hand_id = ? "
                                "ORDER BY pot_index", [hid]).fetchall()
        (total,) = con.execute("SELECT amount FROM events WHERE hand_id = ? AND kind = 'total_pot'", [hid]).fetchone()
        assert sum(p[1] for p in pots[hid]) == total
        assert all(p[4] for p in pots[hid] if p[2])
    assert pots[hand_id] == pots[twin_id]


def test_a_swedish_side_pot_is_read_as_its_pots(store):
    _, con, _ = store
    rows = con.execute("SELECT pot_label, amount, hi_winners FROM pots WHERE hand_id = 'PS-300000000010' ORDER BY pot_index").fetchall()
    assert rows == [("main", 1620, [1]), ("side-1", 680, [1])]
    collects = con.execute("SELECT pot_label, amount FROM events WHERE hand_id = 'PS-300000000010' AND kind = 'collect' "
                           "ORDER BY seq").fetchall()
    assert collects == [("side", 680), ("main", 1620)]


def test_the_game_and_the_table_are_as_written(store):
    _, con, _ = store
    rows = dict(con.execute("SELECT hand_id, game_label || ' | ' || table_name FROM hands").fetchall())
    assert rows["PS-300000000001"] == "Холдем Безлимитный | Ланселот II"
    assert rows["PS-300000000003"] == "Hold'em No Limit | Merope"


def test_the_amounts_are_read_in_the_languages_shape():
    (es,) = _parse(ES)
    assert (es.currency, es.small_blind, es.big_blind, [s.starting_stack for s in es.seats]) == ("EUR", 5, 10, [1000, 735, 1260, 405])
    (pt,) = _parse(PT)
    assert (pt.is_tournament, pt.tournament_id, pt.buy_in, pt.level, pt.ante) == (True, "2900000001", "1000+100", "III", 5)
    assert [s.sitting_out for s in pt.seats] == [False, True, False, False]
    assert [e.all_in for e in pt.events if e.kind == "raise"] == [False, False, True]
    (pt,) = _parse(PT_PT)  # the euro after the amount
    assert (pt.currency, pt.small_blind, pt.big_blind, [s.starting_stack for s in pt.seats]) == ("EUR", 2, 5, [560, 125, 200, 410, 90, 235])
    assert [(e.kind, e.amount, e.to_amount) for e in pt.events if e.all_in] == [("raise", 350, 450), ("call", 200, None)]
    assert [(e.kind, e.seat, e.amount) for e in pt.events if e.kind in ("big_blind", "uncalled_return")] == [
        ("big_blind", 3, 5), ("big_blind", 5, 5), ("uncalled_return", 1, 150)]
    (pt,) = _parse(PT_PT_MUCK)
    assert [(e.kind, e.seat, e.amount) for e in pt.events if e.kind in ("dead_blind", "muck")] == [("dead_blind", 2, 3), ("muck", 1, None)]
    (sv,) = _parse(SV_CASH)
    assert (sv.currency, sv.small_blind, sv.big_blind, [s.starting_stack for s in sv.seats]) == ("USD", 1, 2, [200, 174, 231, 96])
    (sv,) = _parse(SV)
    assert (sv.is_tournament, sv.tournament_id, sv.buy_in, sv.level) == (True, "2900000005", "$0.44+$0.06 USD", "II")
    assert [s.sitting_out for s in sv.seats] == [False, True, False, False, False]
    assert [(e.kind, e.seat, e.amount) for e in sv.events if e.kind in ("finish", "collect")] == [("collect", 1, 1945), ("finish", 6, 7)]


# --- a violation, found in the language as in English ------------------------------------

# an underraise on the flop (a raise of 5 over a bet of 10: the minimum is 10), called; the
# all in on the turn takes what is left, so the pot is the same
RU_UNDERRAISE = (RU.replace("kettle77: делает рейз $0.20 $0.30\nBob Lee: делает колл $0.20",
                            "kettle77: делает рейз $0.05 $0.15\nBob Lee: делает колл $0.05")
                 .replace("$1.12", "$1.27"))
EN_UNDERRAISE = (RU_EN.replace("kettle77: raises $0.20 to $0.30\nBob Lee: calls $0.20",
                               "kettle77: raises $0.05 to $0.15\nBob Lee: calls $0.05")
                 .replace("$1.12", "$1.27"))


def test_a_violation_in_a_localized_hand_is_found_by_the_same_check(tmp_path):
    assert RU_UNDERRAISE != RU and EN_UNDERRAISE != RU_EN
    found = {}
    for name, text in (("ru", RU_UNDERRAISE), ("en", EN_UNDERRAISE)):
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        result = audit([path], db=tmp_path / f"{name}.duckdb", edition_name="tda-2024")
        assert (result.ingest.stored, result.ingest.rejected) == (1, 0)
        with duckdb.connect(str(tmp_path / f"{name}.duckdb"), read_only=True) as con:
            found[name] = con.execute("SELECT check_id, category, seat, line_no FROM findings ORDER BY check_id").fetchall()
    assert ("illegal-underraise", "violation", 3, 18) in found["ru"]
    assert found["ru"] == found["en"]


def test_a_line_of_no_entry_is_kept_unread_as_written_and_a_rejection_quotes_the_line():
    (hand,) = _parse(RU.replace("Bob Lee: делает бет $0.10\n", "Bob Lee: делает бет $0.10\nkettle77: барабанит по столу\n"))
    assert isinstance(hand, ParsedHand)
    (e,) = [e for e in hand.events if e.kind == "unread"]
    assert (e.street, e.seat, e.player, e.text) == ("flop", 3, "kettle77", "kettle77: барабанит по столу")
    # the same in the French client's shape: the player is found before ' : '
    (hand,) = _parse(FR.replace("Remi95 : checks\n", "Remi95 : checks\nRemi95 : taps the table\n"))
    (e,) = [e for e in hand.events if e.kind == "unread"]
    assert (e.seat, e.player, e.text) == (3, "Remi95", "Remi95 : taps the table")
    # a seat line that cannot be read: the rejection quotes it as written, not as read
    (error,) = _parse(RU.replace("Место 2: Bob Lee ($1.50 фишек)", "Место 2: Bob Lee ($1.50 фишек) сидит"))
    assert (error.reason_code, error.line_no, error.hand_id) == ("parse-error", 4, "PS-300000000001")
    assert error.reason == "line 4: seat line not understood: 'Место 2: Bob Lee ($1.50 фишек) сидит'"


# --- an export's lines between hands --------------------------------------------------------

SEPARATED = "*********** # 1 **************\n" + RU_EN + "\n\n*********** # 2 **************\n" + PT_EN + "\n"
RU_EXPORT = ("Выписка Ваши последние 2 раздач(и) запрошена Ирина_К (irina@example.com)\n\n*********** №1 **************\n"
             + RU + "\n\n*********** №2 **************\n" + PT + "\n")
ES_EXPORT = "*********** n. 1 **************\n" + ES + "\n*********** n. 2 **************\n" + FR + "\n"
# the pt-PT client's export: its title, then the separators
PT_PT_EXPORT = ("Transcrito último 1 hora de jogo requerido por Tiago.M (tiago.m@example.com)\n\n"
                "*********** # 1 **************\n" + PT_PT + "\n\n*********** # 2 **************\n" + PT_PT_MUCK + "\n")


@pytest.mark.parametrize("text, first", [(SEPARATED, RU_EN), (RU_EXPORT, RU), (ES_EXPORT, ES), (PT_PT_EXPORT, PT_PT)],
                         ids=["english", "russian", "spanish", "portuguese-pt"])
def test_separator_lines_are_no_hand_and_no_hands_line(tmp_path, text, first):
    path = tmp_path / "export.txt"
    path.write_text(text, encoding="utf-8")
    result = audit([path], db=tmp_path / "export.duckdb", edition_name="tda-2024")
    assert (result.ingest.stored, result.ingest.rejected) == (2, 0)
    with duckdb.connect(str(tmp_path / "export.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM ingest_errors").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM findings WHERE check_id = 'unread-lines'").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM events WHERE kind = 'unread'").fetchone() == (0,)
        # each hand's content hash and last line are its own, without the separator after it
        rows = con.execute("SELECT content_hash, last_line FROM hands ORDER BY first_line").fetchall()
    assert rows[0][0] == content_hash(first)
    assert text.splitlines()[rows[0][1] - 1] == first.splitlines()[-1]


# --- a re-buy written before the seats --------------------------------------------------------

REBUY_BEFORE = """\
PokerStars Hand #300000000201: Tournament #2900000002, $5+$0.50 USD Hold'em No Limit - Level I (10/20) - 2015/03/02 19:00:00 ET
Table '2900000002 1' 9-max Seat #1 is the button
Mira re-buys and receives 1500 chips for $5.00
Seat 1: Oskar (1500 in chips)
Seat 2: Mira (1500 in chips)
Seat 3: Tove (3020 in chips)
Mira: posts small blind 10
Tove: posts big blind 20
*** HOLE CARDS ***
Oskar: folds
Mira: folds
Uncalled bet (10) returned to Tove
Tove collected 20 from pot
Tove: doesn't show hand
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: Oskar (button) folded before Flop (didn't bet)
Seat 2: Mira (small blind) folded before Flop
Seat 3: Tove (big blind) collected (20)
"""
# the hand before at the table: Mira goes all in and busts (Tove wins 1500 from her)
BUSTED = """\
PokerStars Hand #300000000200: Tournament #2900000002, $5+$0.50 USD Hold'em No Limit - Level I (10/20) - 2015/03/02 18:59:00 ET
Table '2900000002 1' 9-max Seat #3 is the button
Seat 1: Oskar (1510 in chips)
Seat 2: Mira (1500 in chips)
Seat 3: Tove (1510 in chips)
Oskar: posts small blind 10
Mira: posts big blind 20
*** HOLE CARDS ***
Tove: raises 40 to 60
Oskar: folds
Mira: raises 1440 to 1500 and is all-in
Tove: calls 1440
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Js]
*** RIVER *** [2c 7d 9h Js] [4s]
*** SHOW DOWN ***
Mira: shows [Kc Qc] (high card King)
Tove: shows [Ah Ad] (a pair of Aces)
Tove collected 3010 from pot
*** SUMMARY ***
Total pot 3010 | Rake 0
Board [2c 7d 9h Js 4s]
Seat 1: Oskar (small blind) folded before Flop
Seat 2: Mira (big blind) showed [Kc Qc] and lost with high card King
Seat 3: Tove (button) showed [Ah Ad] and won (3010) with a pair of Aces
"""


def _table_findings(tmp_path: Path, name: str, text: str) -> list[tuple]:
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    result = audit([path], db=tmp_path / f"{name}.duckdb", edition_name="tda-2024")
    assert (result.ingest.stored, result.ingest.rejected) == (2, 0)
    with duckdb.connect(str(tmp_path / f"{name}.duckdb"), read_only=True) as con:
        return con.execute("SELECT check_id, hand_id, seat, message FROM findings WHERE check_id = 'stack-continuity'").fetchall()


def test_a_rebuy_before_the_seat_lines_is_read_and_is_in_the_stacks(tmp_path):
    (hand,) = _parse(REBUY_BEFORE)
    assert isinstance(hand, ParsedHand)
    (e,) = [e for e in hand.events if e.kind == "rebuy"]
    assert (e.seq, e.seat, e.player, e.amount, e.line_no, e.text) == (0, 2, "Mira", 1500, 3, "Mira re-buys and receives 1500 chips for $5.00")
    # busted in the hand before, back with the chips of the re-buy written before her seat line: no finding
    assert _table_findings(tmp_path, "rebuy", BUSTED + "\n\n" + REBUY_BEFORE) == []
    # the same stack with no re-buy written: chips appeared
    no_rebuy = REBUY_BEFORE.replace("Mira re-buys and receives 1500 chips for $5.00\n", "")
    (found,) = _table_findings(tmp_path, "no-rebuy", BUSTED + "\n\n" + no_rebuy)
    assert found[:3] == ("stack-continuity", "PS-300000000201", 2)
    # a stack that is not what the re-buy gives: named, with the chips bought
    more = REBUY_BEFORE.replace("Seat 2: Mira (1500 in chips)", "Seat 2: Mira (1700 in chips)")
    (found,) = _table_findings(tmp_path, "more", BUSTED + "\n\n" + more)
    assert found[:3] == ("stack-continuity", "PS-300000000201", 2)
    assert "bought 1500 before this hand" in found[3] and "200 chips appeared" in found[3], found[3]


@pytest.mark.parametrize("name", list(HANDS))
def test_a_localized_header_is_found_where_files_are_told_and_cut(name):
    """detect (which parser reads a file) and HAND_START (where a big file is cut into chunks,
    in bytes) find each language's header, as they find English ones."""
    from parsers.pokerstars import HAND_START

    text = HANDS[name][0]
    assert PokerStarsParser().detect("Выписка ... запрошена x\n\n" + text, "x.txt")
    export = ("*********** # 1 **************\n" + text + "\n\n*********** # 2 **************\n" + text).encode("utf-8")
    starts = [m.start() for m in HAND_START.finditer(export)]
    assert starts == [len(b"*********** # 1 **************\n"), export.rindex(text.encode("utf-8"))]
