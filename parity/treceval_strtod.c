/* Prints, for each argument, glibc's atof (strtod) of it as the bits of
   the double in hex: the table of metric/treceval's TestAtofMatchesStrtod.
   usage: gcc -o strtod parity/treceval_strtod.c && ./strtod -nan 1e5x ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        double d = atof(argv[i]);
        unsigned long long b;
        memcpy(&b, &d, sizeof b);
        printf("{%s, 0x%016llx},\n", argv[i], b);
    }
    return 0;
}
