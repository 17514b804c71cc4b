"""The tile sets as data: base game, Bridges Castles & Bazaars, Traders & Builders.

Each line is one tile type, unrotated: its JCloisterZone id (kept so that saved games import),
how many copies the set has, its edges N E S W (C city, R road, F field) and its segments.
Segment clauses, separated by ``;``:

* ``city N+W`` one city touching the listed edges; flags ``pennant``, ``goods=wine|grain|cloth``,
  ``angular`` (a one-edge city end that is not a semicircle, so not a castle base, R-CASTLE-2);
* ``road E+W`` one road through the listed edges, or ``road S`` for a road ending inside the
  tile; flag ``inn``;
* ``field Nw+Ne>E+W,S`` one field touching the listed half-edges (``inner`` if none) and, after
  ``>``, the city segments of this tile it borders, named by their edges;
* ``cloister`` and ``bazaar``.
"""

from __future__ import annotations

from typing import Final

START_TILE: Final = "BA/RCr"

BASE: Final = """
BA/L       4 FFFF cloister; field Nw+Ne+En+Es+Se+Sw+Ws+Wn
BA/LR      2 FFRF cloister; road S; field Nw+Ne+En+Es+Se+Sw+Ws+Wn
BA/RCr     4 CRFR city N; road E+W; field En+Wn>N; field Es+Se+Sw+Ws
BA/Cccc+   1 CCCC city N+E+S+W pennant
BA/CccR+   2 CCRC city N+E+W pennant; road S; field Se>N+E+W; field Sw>N+E+W
BA/CccR    1 CCRC city N+E+W; road S; field Se>N+E+W; field Sw>N+E+W
BA/CFc+    2 FCFC city E+W pennant; field Nw+Ne>E+W; field Se+Sw>E+W
BA/CFc.1   1 FCFC city E+W; field Nw+Ne>E+W; field Se+Sw>E+W
BA/Cc.1    3 CFFC city N+W; field En+Es+Se+Sw>N+W
BA/Cc+     2 CFFC city N+W pennant; field En+Es+Se+Sw>N+W
BA/CcRr    3 CRRC city N+W; road E+S; field En+Sw>N+W; field Es+Se
BA/CcRr+   2 CRRC city N+W pennant; road E+S; field En+Sw>N+W; field Es+Se
BA/Ccc     3 CCFC city N+E+W; field Se+Sw>N+E+W
BA/Ccc+    1 CCFC city N+E+W pennant; field Se+Sw>N+E+W
BA/CRr     3 CRRF city N; road E+S; field En+Sw+Ws+Wn>N; field Es+Se
BA/RrC     3 CFRR city N; road S+W; field Wn+En+Es+Se>N; field Ws+Sw
BA/CRRR    3 CRRR city N; road E; road S; road W; field Wn+En>N; field Ws+Sw; field Es+Se
BA/C       5 CFFF city N; field En+Es+Se+Sw+Ws+Wn>N
BA/CFC.2   3 CFCF city N; city S; field En+Es+Ws+Wn>N,S
BA/CC.2    2 CFFC city N; city W; field En+Es+Se+Sw>N,W
BA/RRRR    1 RRRR road N; road E; road S; road W; field Wn+Nw; field Ne+En; field Es+Se; field Sw+Ws
BA/RRR     4 FRRR road E; road S; road W; field Wn+Nw+Ne+En; field Es+Se; field Sw+Ws
BA/Rr      9 FFRR road S+W; field Wn+Nw+Ne+En+Es+Se; field Sw+Ws
BA/RFr     8 FRFR road E+W; field Wn+Nw+Ne+En; field Es+Se+Sw+Ws
"""

BRIDGES_CASTLES_BAZAARS: Final = """
BB/Cccc.b  2 CCCC bazaar; city N+E+S+W
BB/CFc.b   1 FCFC bazaar; city E+W; field Nw+Ne>E+W; field Se+Sw>E+W
BB/CFR.b   1 CFRF bazaar; city N; road S; field En+Es+Se+Sw+Ws+Wn>N
BB/F.b     1 FFFF bazaar; field Nw+Ne+En+Es+Se+Sw+Ws+Wn
BB/R.bi    1 FFRF bazaar; road S inn; field Nw+Ne+En+Es+Se+Sw+Ws+Wn
BB/RFR.b   1 RFRF bazaar; road N; road S; field Sw+Ws+Wn+Nw; field Ne+En+Es+Se
BB/RFR.bi  1 RFRF bazaar; road N; road S inn; field Sw+Ws+Wn+Nw; field Ne+En+Es+Se
BB/CCCR    1 CCRC city W; city N; city E; road S; field Sw>W,N,E; field Se>E
BB/CFR!    1 FRFC city W angular; road E; field Nw+Ne>W; field En>W; field Es+Se+Sw>W
BB/LCFc    1 FCFC cloister; city E+W; field Nw+Ne>E+W; field Se+Sw>E+W
BB/LRFr    1 FRFR cloister; road E+W; field Wn+Nw+Ne+En; field Es+Se+Sw+Ws
"""

TRADERS_BUILDERS: Final = """
TB/Cc.g    1 CFFC city N+W goods=grain; field En+Es+Se+Sw>N+W
TB/Cc.w    1 CFFC city N+W goods=wine; field En+Es+Se+Sw>N+W
TB/Ccc.g   1 CCFC city N+E+W goods=grain; field Se+Sw>N+E+W
TB/CFc.w   1 FCFC city E+W goods=wine; field Nw+Ne>E+W; field Se+Sw>E+W
TB/CCc.c   1 FCCC city E+W goods=cloth; city S; field Nw+Ne>E+W; field inner>E+W,S
TB/CCc.w   1 FCCC city E+W goods=wine; city S; field Nw+Ne>E+W; field inner>E+W,S
TB/CcCC.c  1 CCCC city N+W goods=cloth; city S; city E; field inner>N+W,E,S
TB/CcCc.w  1 CCCC city N+W goods=wine; city E+S; field inner>N+W,E+S
TB/CcRR.w  1 CRRC city N+W goods=wine; road E; road S; field Sw>N+W; field Se+Es>N+W; field En>N+W
TB/CcRR!.c 1 CRRC city N+W goods=cloth; road E; road S; field Sw>N+W; field Se>N+W; field Es>N+W; field En>N+W
TB/CcRC.c  1 CRCC city N+W goods=cloth; city S; road E; field En>N+W; field Es>N+W,S
TB/CcRC.g  1 CRCC city N+W goods=grain; city S; road E; field En>N+W; field Es>N+W,S
TB/CcR.c   1 CRFC city N+W goods=cloth; road E; field En>N+W; field Es+Se+Sw>N+W
TB/CcR!.w  1 CRFC city N+W goods=wine; road E; field En>N+W; field Es>N+W; field Se+Sw>N+W
TB/CccR.w  1 CCRC city N+E+W goods=wine; road S; field Sw>N+E+W; field Se>N+E+W
TB/CRc.g   1 FCRC city E+W goods=grain; road S; field Nw+Ne>E+W; field Sw>E+W; field Se>E+W
TB/CRc.w   1 FCRC city E+W goods=wine; road S; field Nw+Ne>E+W; field Sw>E+W; field Se>E+W
TB/CRcR.w  1 RCRC city E+W goods=wine; road N; road S; field Nw>E+W; field Ne>E+W; field Se>E+W; field Sw>E+W
TB/RCc.g   1 CFRC city N+W goods=grain; road S; field Sw>N+W; field Se+En+Es>N+W
TB/RCc!.g  1 CFRC city N+W goods=grain; road S; field Sw>N+W; field Se>N+W; field En+Es>N+W
TB/CR      1 CRFF city N; road E; field En>N; field Es+Se+Sw+Ws+Wn>N
TB/RRC     1 CFRR city N; road W; road S; field Wn>N; field Ws+Sw; field En+Es+Se>N
TB/LRRR    1 FRRR cloister; road E; road S; road W; field Wn+Nw+Ne+En; field Es+Se; field Ws+Sw
TB/RRrr    1 RRRR road N+S; road E+W; field Wn+Nw; field Ne+En; field Es+Se; field Sw+Ws
"""

# Expansion code -> its tile lines. The codes are what users type (`--expansions base,bcb,tb`).
SETS: Final = {
    "base": BASE,
    "bcb": BRIDGES_CASTLES_BAZAARS,
    "tb": TRADERS_BUILDERS,
}
