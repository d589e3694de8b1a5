#!/usr/bin/env python3
"""N random legal KRPvKR positions, white to move, one FEN a line: the input of
the `probe --epd` figures in docs/benchmarks.md.

    scripts/random_krpkr.py N [SEED] > krpkr.epd
"""
import random, sys
random.seed(int(sys.argv[2]) if len(sys.argv)>2 else 1)
n=int(sys.argv[1])
def rook_attacks(sq, occ, target):
    f,r=sq%8,sq//8
    for df,dr in ((1,0),(-1,0),(0,1),(0,-1)):
        x,y=f+df,r+dr
        while 0<=x<8 and 0<=y<8:
            s=y*8+x
            if s==target: return True
            if s in occ: break
            x+=df;y+=dr
    return False
out=0
while out<n:
    wk,bk,wr,wp,br=random.sample(range(64),5)
    if not (8<=wp<56): continue
    if max(abs(wk%8-bk%8),abs(wk//8-bk//8))<=1: continue
    occ={wk,bk,wr,wp,br}
    if rook_attacks(wr,occ,bk): continue
    f,r=wp%8,wp//8
    if r+1<8 and ((f>0 and (r+1)*8+f-1==bk) or (f<7 and (r+1)*8+f+1==bk)): continue
    board=['']*64
    board[wk]='K';board[bk]='k';board[wr]='R';board[wp]='P';board[br]='r'
    rows=[]
    for y in range(7,-1,-1):
        s='';e=0
        for x in range(8):
            c=board[y*8+x]
            if c: 
                if e: s+=str(e);e=0
                s+=c
            else: e+=1
        if e: s+=str(e)
        rows.append(s)
    print('/'.join(rows)+' w - - 0 1'); out+=1
