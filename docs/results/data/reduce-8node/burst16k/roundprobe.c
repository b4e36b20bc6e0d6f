/* Per-round cost of exchange+combine rounds, 4 pairs at once (docs/results/reduce-8node.md, "The balanced 128 KiB point and the token-bucket burst").
 * Build and run: mpicc -O2 -o roundprobe roundprobe.c && jobs/emucluster up 8 && jobs/emucluster run -- ./roundprobe */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int rank,size; MPI_Init(&argc,&argv); MPI_Comm_rank(MPI_COMM_WORLD,&rank); MPI_Comm_size(MPI_COMM_WORLD,&size);
  int sizes[]={0,1024,4096,16384,43690,65536,131072}; int ns=7, R=10, reps=15;
  int *a=malloc(131072),*b=malloc(131072); memset(a,0,131072); memset(b,0,131072);
  int peer=rank^1;
  for(int si=0;si<ns;si++){
    int s=sizes[si], cnt=s/4; double t[64];
    for(int k=0;k<reps;k++){
      MPI_Barrier(MPI_COMM_WORLD);
      double t0=MPI_Wtime();
      for(int r=0;r<R;r++){
        MPI_Request q[2];
        /* one-way rounds alternating direction, like a reduction round (sender -> receiver, receiver combines) */
        if(((rank&1)==0) == (r&1)){ MPI_Isend(a,cnt,MPI_INT,peer,r,MPI_COMM_WORLD,&q[0]); MPI_Wait(&q[0],MPI_STATUS_IGNORE);}
        else { MPI_Irecv(b,cnt,MPI_INT,peer,r,MPI_COMM_WORLD,&q[1]); MPI_Wait(&q[1],MPI_STATUS_IGNORE); MPI_Reduce_local(b,a,cnt,MPI_INT,MPI_SUM);}
      }
      t[k]=(MPI_Wtime()-t0)/R;
    }
    qsort(t,reps,sizeof(double),cmp);
    double med=t[reps/2], mn=t[0], gmed, gmn;
    MPI_Allreduce(&med,&gmed,1,MPI_DOUBLE,MPI_MAX,MPI_COMM_WORLD);
    MPI_Allreduce(&mn,&gmn,1,MPI_DOUBLE,MPI_MAX,MPI_COMM_WORLD);
    if(rank==0) printf("s=%6d round median %.1f us  min %.1f us\n",s,gmed*1e6,gmn*1e6);
  }
  MPI_Finalize(); return 0;
}
