/* EXPECT: OK  NP: 2 */
/*
 * Checks: MPI-IO on a per-job temporary file, used correctly; no finding
 * expected. The file is deleted at the end.
 *
 *  - File_open (create, read/write), set_view with an interleaved filetype
 *    (each rank owns every other int), collective write_at_all, independent
 *    read_at, nonblocking iwrite_at / iread_at / iwrite_at_all + Wait,
 *    individual file pointer (seek, write, read, get_position), split
 *    collective write_at_all_begin/end, shared pointer write_ordered.
 *  - sync-barrier-sync between writes and reads by other ranks (sec. 14.6.1).
 *  - queries: get_size, get_amode, get_group (freed), get_info (freed),
 *    get_view (the returned derived filetype is freed, the named etype is
 *    not), get_type_extent, get/set_atomicity, get_byte_offset.
 *  - file error handlers: a user one created, set and freed while attached.
 *  - File_close, then File_delete by one rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

static void file_eh(MPI_File *fh, int *code, ...)
{
    (void)fh; (void)code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[256];
    if (rank == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(name, sizeof name, "%s/mpicheck_ok_io_%ld_%.0f.dat", tmp && *tmp ? tmp : "/tmp",
                 (long)getpid(), MPI_Wtime() * 1e6);
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);

    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Errhandler eh;
    MPI_File_create_errhandler(file_eh, &eh);
    MPI_File_set_errhandler(fh, eh);
    MPI_Errhandler_free(&eh);

    /* every other int belongs to this rank */
    MPI_Datatype ftype;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &ftype);
    MPI_Type_commit(&ftype);
    MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, ftype, "native", MPI_INFO_NULL);

    /* collective write of 4 ints at view offset 0, read back by the other rank */
    int w[4], r[4];
    for (int i = 0; i < 4; i++)
        w[i] = 10 * rank + i;
    MPI_Status st;
    MPI_File_write_at_all(fh, 0, w, 4, MPI_INT, &st);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 4);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_read_at(fh, 0, r, 4, MPI_INT, &st);
    CHECK(r[3] == 10 * rank + 3);

    /* nonblocking: offsets 4..7 of the view */
    MPI_Request rq;
    int w2[2] = {100 + rank, 200 + rank}, r2[2] = {-1, -1};
    MPI_File_iwrite_at(fh, 4, w2, 2, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    int w3[2] = {300 + rank, 400 + rank};
    MPI_File_iwrite_at_all(fh, 6, w3, 2, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_at(fh, 4, r2, 2, MPI_INT, &rq);
    int flag = 0;
    while (!flag)
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
    CHECK(r2[0] == 100 + rank && r2[1] == 200 + rank);

    /* individual file pointer */
    MPI_Offset pos, byteoff;
    MPI_File_seek(fh, 8, MPI_SEEK_SET);
    int w4 = 500 + rank, r4 = -1;
    MPI_File_write(fh, &w4, 1, MPI_INT, &st);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 9);
    MPI_File_get_byte_offset(fh, pos, &byteoff);
    CHECK(byteoff == (MPI_Offset)((2 * 9 + rank) * sizeof(int)));
    MPI_File_seek(fh, -1, MPI_SEEK_CUR);
    MPI_File_read(fh, &r4, 1, MPI_INT, &st);
    CHECK(r4 == 500 + rank);

    /* split collective */
    int w5[2] = {600 + rank, 700 + rank};
    MPI_File_write_at_all_begin(fh, 10, w5, 2, MPI_INT);
    MPI_File_write_at_all_end(fh, w5, &st);

    /* shared file pointer, in rank order, on a plain byte view */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_seek_shared(fh, 64, MPI_SEEK_SET);
    int w6 = 800 + rank;
    MPI_File_write_ordered(fh, &w6, 1, MPI_INT, &st);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    int r6[2] = {-1, -1};
    MPI_File_read_at(fh, 64, r6, 2, MPI_INT, &st);
    CHECK(r6[0] == 800 && r6[1] == 801);
    int r7[2] = {-1, -1};
    MPI_File_read_at(fh, 20, r7, 2, MPI_INT, &st);     /* view offsets 10, 11 of both ranks */
    CHECK(r7[0] == 600 && r7[1] == 601);

    /* queries */
    MPI_Offset fsize;
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize >= 66 * (MPI_Offset)sizeof(int));
    int amode;
    MPI_File_get_amode(fh, &amode);
    CHECK(amode & MPI_MODE_RDWR);
    MPI_Group g;
    MPI_File_get_group(fh, &g);
    int gs;
    MPI_Group_size(g, &gs);
    CHECK(gs == 2);
    MPI_Group_free(&g);
    MPI_Info info;
    MPI_File_get_info(fh, &info);
    MPI_Info_free(&info);
    MPI_Aint ext;
    MPI_File_get_type_extent(fh, ftype, &ext);
    CHECK(ext == 2 * (MPI_Aint)sizeof(int));
    int atom;
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &atom);
    CHECK(atom);
    MPI_File_set_atomicity(fh, 0);
    MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, ftype, "native", MPI_INFO_NULL);
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, &et, &ft, rep);
    CHECK(disp == (MPI_Offset)(rank * sizeof(int)) && strcmp(rep, "native") == 0);
    /* returned derived types are new handles the caller frees; named ones are not freed */
    int ni, na, nd, comb;
    MPI_Type_get_envelope(et, &ni, &na, &nd, &comb);
    if (comb != MPI_COMBINER_NAMED)
        MPI_Type_free(&et);
    MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb);
    if (comb != MPI_COMBINER_NAMED)
        MPI_Type_free(&ft);

    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_io_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
