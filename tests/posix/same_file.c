/* Compares the identity (st_dev, st_ino) of standard input, standard output
 * and a file named by the argument, as sort, cat and cp do before writing
 * over an input. The replay's stdin and file A are distinct files and its
 * stdout is a pipe, so natively no two of them are the same file: the engine
 * must not find a path where they are (a symbolic stat's inode number was
 * once free to equal the terminal's). The last branch compares owners with
 * getuid(), which natively agree too (the replay's files are its own). */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int same(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int main(int argc, char **argv) {
    struct stat in, out, f;
    if (fstat(0, &in) != 0 || fstat(1, &out) != 0)
        return 3;
    if (same(&in, &out)) {
        puts("stdin is stdout");
        return 1;
    }
    if (argc > 1) {
        if (stat(argv[1], &f) != 0) {
            puts("no such file");
            return 2;
        }
        if (same(&f, &in) || same(&f, &out)) {
            puts("file is stdin or stdout");
            return 1;
        }
        if (f.st_nlink != 1 || f.st_uid != getuid()) {
            puts("linked or not ours");
            return 1;
        }
        puts("a file of its own");
        return 0;
    }
    puts("distinct");
    return 0;
}
