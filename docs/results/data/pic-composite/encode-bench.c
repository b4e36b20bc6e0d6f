#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include "sparse.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(void){
  size_t W=512,H=512,n=W*H,es=8; char *img=malloc(n*es), *out=malloc(4+n*es); uint64_t id; float far=1e30f; uint32_t bg=0;
  memcpy(&id,&bg,4); memcpy((char*)&id+4,&far,4);
  for(size_t i=0;i<n;i++) memcpy(img+i*es,&id,8);
  srand(1);
  for(int s=0;s<20000;s++){ size_t x=W*3/8+rand()%(W/8), y=rand()%H; for(int dy=0;dy<2;dy++)for(int dx=0;dx<2;dx++){ size_t p=((y+dy)%H)*W+(x+dx)%W; uint64_t v=rand()|1; memcpy(img+p*es,&v,8);} }
  size_t bytes=0; double t0=now(); for(int r=0;r<50;r++) bytes=papcoll__sparse_encode(img,n,es,&id,out); double t=(now()-t0)/50;
  printf("encode 512x512x8: %.3f ms, %zu bytes (%.1f%% of dense)\n",t*1e3,bytes,100.0*bytes/(n*es));
  return 0;}
